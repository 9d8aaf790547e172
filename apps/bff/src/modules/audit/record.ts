import type { AppContext } from '../../context.ts';
import { currentAuditScope } from '../../core/audit-trail.ts';
import type { Queryable } from '../../db/db.ts';
import { realNow } from '../../lib/clock.ts';
import { appendEntries } from './append-repo.ts';
import type { AuditActor, AuditEventInput, PendingEntry } from './entry.ts';
import { groupCommitOf } from './group-commit.ts';

export type { AuditActor, AuditEventInput } from './entry.ts';

type AuditContext = Pick<AppContext, 'db' | 'clock' | 'ids'>;

/**
 * Records one audit entry and resolves once it is durable.
 * - With `tx`: written in that transaction (it commits or rolls back with the change it records). Call it last in
 *   the transaction: it holds the client's chain head until the commit.
 * - Without: joins the next group commit; await it before answering, so an answered request's entry survives a crash.
 *   Never call it without `tx` from inside a transaction (on PGlite that waits for the transaction forever).
 */
export const recordAudit = async (ctx: AuditContext, event: AuditEventInput, tx?: Queryable): Promise<void> => {
  const scope = currentAuditScope();
  const actor = event.actor ?? (scope ? actorOf(scope.caller.principal) : { kind: 'job', id: 'worker' });
  const entry: PendingEntry = {
    id: ctx.ids.id('aud'),
    type: event.type,
    clientId: event.clientId,
    actorKind: actor.kind,
    actorId: actor.id,
    userId: event.userId ?? null,
    // Inside an API request, its id unless the caller names one.
    requestId: event.requestId ?? scope?.requestId ?? null,
    subject: event.subject ?? {},
    // Real time even inside a sandbox test clock's scope: the trail is about what happened on our machines.
    occurredAt: realNow(ctx.clock),
  };
  if (tx) await appendEntries(tx, [entry]);
  else await groupCommitOf(ctx.db).append(entry);
};

/** The actor of an API caller: the client's access token, a user token, or the widget session carrying one. */
export const actorOf = (
  principal: { kind: 'access'; client: { id: string } } | { kind: 'user'; client: { id: string }; tokenRef: string; via: string },
): AuditActor => {
  if (principal.kind === 'access') return { kind: 'client', id: principal.client.id };
  return { kind: principal.via === 'widget-session' ? 'widget' : 'user_token', id: principal.tokenRef };
};
