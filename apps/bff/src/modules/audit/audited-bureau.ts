import type { BureauProvider, CreditSubject } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import { currentAuditScope } from '../../core/audit-trail.ts';
import { actorOf, recordAudit } from './record.ts';
import { clientOfUser } from './subject-repo.ts';

type AuditContext = Pick<AppContext, 'db' | 'clock' | 'ids' | 'services'>;

/**
 * Records every answered bureau pull (`bureau.pull`): by the API request it served (its caller and request id) or,
 * outside a request, by the monitoring job; with the pull's id (period or refresh key) and what was pulled. Recorded
 * after the bureau answered and before the caller sees the file. A Proxy, so the provider keeps its class and
 * everything else it offers.
 */
export const auditedBureau = (ctx: AuditContext, bureau: BureauProvider): BureauProvider => {
  const record = async (
    subject: CreditSubject,
    file: 'credit' | 'identity',
    outcome: string,
    options: { pullId?: string; clientId?: string } = {},
  ) => {
    const { pullId } = options;
    const scope = currentAuditScope();
    const clientId = scope?.caller.clientId ?? options.clientId ?? (await clientOfUser(ctx.db, subject.userId));
    if (!clientId) return;
    await recordAudit(ctx, {
      type: 'bureau.pull',
      clientId,
      actor: scope ? actorOf(scope.caller.principal) : { kind: 'job', id: 'monitoring' },
      userId: subject.userId,
      requestId: scope?.requestId ?? null,
      subject: { bureau: bureau.name, file, outcome, ...(pullId ? { pullId } : {}) },
    });
  };
  return new Proxy(bureau, {
    get(target, property, receiver) {
      if (property === 'pullCreditFile') {
        return async (...args: Parameters<BureauProvider['pullCreditFile']>) => {
          const result = await target.pullCreditFile(...args);
          await record(args[0], 'credit', result.status, args[2]);
          return result;
        };
      }
      if (property === 'pullIdentityFile') {
        return async (...args: Parameters<BureauProvider['pullIdentityFile']>) => {
          const file = await target.pullIdentityFile(...args);
          await record(args[0], 'identity', 'ok', args[2]);
          return file;
        };
      }
      // simulateScore passes through like the rest: the bureau keeps nothing and bills nothing, so it is no pull. The
      // request it serves is audited as a credit-data read (audited-operations.ts).
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};
