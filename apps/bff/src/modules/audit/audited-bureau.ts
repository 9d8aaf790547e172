import type { BureauCallOptions, BureauProvider, CreditSubject } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import { actorOf, recordAudit } from './record.ts';
import { clientOfUser } from './subject-repo.ts';

type AuditContext = Pick<AppContext, 'db' | 'clock' | 'ids' | 'services'>;

/** A call's options as the provider gets them: without the request it serves. */
const withoutRequest = <O extends BureauCallOptions>(options: O | undefined): O | undefined => {
  if (!options?.onBehalfOf) return options;
  const { onBehalfOf: _served, ...call } = options;
  return call as O;
};

/**
 * Records every answered bureau pull (`bureau.pull`): by the API request it served, which the call names in its
 * options (`onBehalfOf`: its caller and request id), or, without one, by the monitoring job; with the pull's id (period
 * or refresh key) and what was pulled. Recorded after the bureau answered and before the caller sees the file. The
 * provider is called without `onBehalfOf`: who the platform's caller is stays the platform's. A Proxy, so the
 * provider keeps its class and everything else it offers.
 */
export const auditedBureau = (ctx: AuditContext, bureau: BureauProvider): BureauProvider => {
  const record = async (
    subject: CreditSubject,
    file: 'credit' | 'identity',
    outcome: string,
    options: BureauCallOptions & { pullId?: string } = {},
  ) => {
    const { pullId, onBehalfOf } = options;
    const clientId = onBehalfOf?.caller.clientId ?? options.clientId ?? (await clientOfUser(ctx.db, subject.userId));
    if (!clientId) return;
    await recordAudit(ctx, {
      type: 'bureau.pull',
      clientId,
      actor: onBehalfOf ? actorOf(onBehalfOf.caller.principal) : { kind: 'job', id: 'monitoring' },
      userId: subject.userId,
      requestId: onBehalfOf?.requestId ?? null,
      subject: { bureau: bureau.name, file, outcome, ...(pullId ? { pullId } : {}) },
    });
  };
  return new Proxy(bureau, {
    get(target, property, receiver) {
      if (property === 'pullCreditFile') {
        return async (...[subject, asOf, options]: Parameters<BureauProvider['pullCreditFile']>) => {
          const result = await target.pullCreditFile(subject, asOf, withoutRequest(options));
          await record(subject, 'credit', result.status, options);
          return result;
        };
      }
      if (property === 'pullIdentityFile') {
        return async (...[subject, asOf, options]: Parameters<BureauProvider['pullIdentityFile']>) => {
          const file = await target.pullIdentityFile(subject, asOf, withoutRequest(options));
          await record(subject, 'identity', 'ok', options);
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
