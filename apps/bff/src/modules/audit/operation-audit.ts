import type { AppContext } from '../../context.ts';
import type { AuditTrail } from '../../core/audit-trail.ts';
import { AUDITED_OPERATIONS } from './audited-operations.ts';
import { actorOf, recordAudit } from './record.ts';

const userIdOf = (params: unknown): string | null => {
  const userId = (params as { userId?: unknown } | undefined)?.userId;
  return typeof userId === 'string' ? userId : null;
};

/** `ctx.audit`: the dispatcher's hook, recording reads of credit and personal data through the group commit. */
export const operationAudit = (ctx: Pick<AppContext, 'db' | 'clock' | 'ids'>): AuditTrail => ({
  async recordOperation(operationId, caller, requestId, params) {
    const type = AUDITED_OPERATIONS[operationId];
    if (!type) return;
    const subject: Record<string, string> = { operationId };
    const alertId = (params as { alertId?: unknown } | undefined)?.alertId;
    if (typeof alertId === 'string') subject.alertId = alertId;
    await recordAudit(ctx, {
      type,
      clientId: caller.clientId,
      actor: actorOf(caller.principal),
      userId: userIdOf(params),
      requestId,
      subject,
    });
  },
});
