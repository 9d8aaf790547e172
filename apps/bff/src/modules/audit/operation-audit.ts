import type { AppContext } from '../../context.ts';
import type { AuditTrail } from '../../core/audit-trail.ts';
import { realNow } from '../../lib/clock.ts';
import { AUDITED_OPERATIONS } from './audited-operations.ts';
import { AuditChainer } from './chainer.ts';
import { actorOf } from './record.ts';
import { AuditSpool } from './spool.ts';

const stringParam = (params: unknown, name: string): string | null => {
  const value = (params as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : null;
};

const API_FALLBACK_FACTOR = 20;

type OperationAuditContext = Pick<AppContext, 'db' | 'clock' | 'ids' | 'services'> &
  Partial<Pick<AppContext, 'config' | 'logger'>>;

/**
 * `ctx.audit`: the dispatcher's hook, recording reads of credit and personal data. A read is answered once its entry
 * is committed to the spool (spool.ts); the chainer links it into the client's hash chain within
 * AUDIT_CHAIN_INTERVAL_MS (chainer.ts), and whatever lists or exports the trail drains the spool first.
 */
export const operationAudit = (ctx: OperationAuditContext): AuditTrail => {
  const interval = ctx.config?.AUDIT_CHAIN_INTERVAL_MS ?? 250;
  const role = ctx.config?.ROLE ?? 'all';
  // A split deployment chains in the worker (every interval), off the API processes' CPU; an API process looks every
  // API_FALLBACK_FACTOR intervals while the spool holds rows and chains only rows no worker took since its last look,
  // so that without a running worker the spool still drains.
  // One process (`all`) chains an interval after a batch.
  const chainer = new AuditChainer(ctx, role === 'api' ? interval * API_FALLBACK_FACTOR : interval, role === 'api');
  if (role === 'worker') chainer.everyInterval();
  const spool = new AuditSpool(ctx.db, () => chainer.soon());
  // Every entry this process records outside a transaction (token mints, bureau pulls) goes through it too (record.ts).
  ctx.services.auditSpool = spool;
  return {
    spooledByWrite: () => chainer.soon(),
    async recordOperation(operationId, caller, requestId, params) {
      const type = AUDITED_OPERATIONS[operationId];
      if (!type) return;
      const actor = actorOf(caller.principal);
      await spool.append([
        type,
        caller.clientId,
        actor.kind,
        actor.id,
        stringParam(params, 'userId'),
        requestId,
        // Real time even inside a sandbox test clock's scope: the trail is about what happened on our machines.
        realNow(ctx.clock).getTime(),
        operationId,
        stringParam(params, 'alertId'),
      ]);
    },
  };
};
