import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { realNow } from '../../lib/clock.ts';
import type { AuditActor, AuditEventInput, PendingEntry } from './entry.ts';
import { toSpooledEntry } from './spool-entry.ts';
import { insertSpoolBatch } from './spool-repo.ts';

export type { AuditActor, AuditEventInput } from './entry.ts';

type AuditContext = Pick<AppContext, 'db' | 'clock'> & Partial<Pick<AppContext, 'audit' | 'services' | 'onBehalfOf'>>;

type SpooledEntry = ReturnType<typeof toSpooledEntry>;

/**
 * The audit entries of several commits in one transaction (a monitoring group commit), spooled as one row by `flush`
 * at the transaction's end instead of one insert each. A transaction carries it as `auditCollector`.
 */
export class AuditCollector {
  readonly #entries: SpooledEntry[] = [];

  collect(entry: SpooledEntry): void {
    this.#entries.push(entry);
  }

  async flush(ctx: AuditContext, tx: Queryable): Promise<void> {
    if (this.#entries.length === 0) return;
    await insertSpoolBatch(tx, JSON.stringify(this.#entries));
    this.#entries.length = 0;
    ctx.audit?.spooledByWrite();
  }
}

const collectorOf = (tx: Queryable): AuditCollector | undefined =>
  (tx as Queryable & { auditCollector?: AuditCollector }).auditCollector;

/**
 * Records one audit entry and resolves once it is durable. Its actor and request id, unless `event` names them, are
 * those of the request `ctx` serves (`ctx.onBehalfOf`); on a context serving none, the worker's, with no request.
 * Every entry waits in the spool (`audit_spool`) until the chainer links it into its client's hash chain, within
 * AUDIT_CHAIN_INTERVAL_MS, in spool order, which is commit order for causally related entries; whatever lists or
 * exports the trail drains the spool first.
 * - With `tx`: spooled in that transaction (it commits or rolls back with the change it records), one insert and no
 *   lock. (Appending to the chain here held the client's chain head locked until the commit: every write of one
 *   client waited for the one before, and it cost three round trips.)
 * - Without: joins the read hook's next spool batch (spool.ts); await it before answering, so an answered request's
 *   entry survives a crash.
 *   Never call it without `tx` from inside a transaction (on PGlite that waits for the transaction forever).
 */
export const recordAudit = async (ctx: AuditContext, event: AuditEventInput, tx?: Queryable): Promise<void> => {
  const served = ctx.onBehalfOf;
  const actor = event.actor ?? (served ? actorOf(served.caller.principal) : { kind: 'job', id: 'worker' });
  const entry: Omit<PendingEntry, 'id'> = {
    type: event.type,
    clientId: event.clientId,
    actorKind: actor.kind,
    actorId: actor.id,
    userId: event.userId ?? null,
    requestId: event.requestId ?? served?.requestId ?? null,
    subject: event.subject ?? {},
    // Real time even inside a sandbox test clock's scope: the trail is about what happened on our machines.
    occurredAt: realNow(ctx.clock),
  };
  const spooled = toSpooledEntry(entry);
  const collector = tx && collectorOf(tx);
  if (collector) {
    collector.collect(spooled);
    return;
  }
  if (tx) {
    await insertSpoolBatch(tx, JSON.stringify([spooled]));
    // Once committed, not now: a chaining pass that ran before the commit would not see the row.
    if (tx.afterCommit) tx.afterCommit(() => ctx.audit?.spooledByWrite());
    else ctx.audit?.spooledByWrite();
    return;
  }
  // Through the same spool as reads and writes, so every entry joins its chain in the order it was committed: a
  // bureau pull never precedes the consent that allowed it. Without the read hook's batches, a row of its own.
  const spool = ctx.services?.auditSpool;
  if (spool) await spool.append(spooled);
  else {
    await insertSpoolBatch(ctx.db, JSON.stringify([spooled]));
    ctx.audit?.spooledByWrite();
  }
};

/**
 * The actor of an API caller: the client's access token, a staff member in the console, a user token, or the widget
 * session carrying one.
 */
export const actorOf = (
  principal:
    | { kind: 'access'; client: { id: string }; staff?: { id: string } | undefined }
    | { kind: 'user'; client: { id: string }; tokenRef: string; via: string },
): AuditActor => {
  if (principal.kind === 'access') {
    return principal.staff ? { kind: 'staff', id: principal.staff.id } : { kind: 'client', id: principal.client.id };
  }
  return { kind: principal.via === 'widget-session' ? 'widget' : 'user_token', id: principal.tokenRef };
};
