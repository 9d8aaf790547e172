import type { TriggerType } from '../../bureau/provider.ts';
import type { Queryable } from '../../db/db.ts';

/** A trigger as stored: `effectiveAt` is the instant from which a pulled file shows the change. */
export interface TriggerToRecord {
  id: string;
  clientId: string;
  userId: string;
  types: TriggerType[];
  occurredOn: string;
  effectiveAt: Date;
}

/** Stores new triggers; one already stored (the same change read twice) is left as it is. */
const INSERT_TRIGGERS = `insert into bureau_triggers (id, client_id, user_id, types, occurred_on, effective_at, received_at)
     select t.id, t.client_id, t.user_id, string_to_array(t.types, ','), t.occurred_on::date, t.effective_at, $7
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])
       as t(id, client_id, user_id, types, occurred_on, effective_at)
     on conflict (id) do nothing`;

const triggerColumns = (triggers: TriggerToRecord[], receivedAt: Date) => [
  triggers.map((t) => t.id),
  triggers.map((t) => t.clientId),
  triggers.map((t) => t.userId),
  triggers.map((t) => t.types.join(',')),
  triggers.map((t) => t.occurredOn),
  triggers.map((t) => t.effectiveAt),
  receivedAt,
];

/** Stores triggers not stored yet (by the bureau's id) and answers the ids that were new. */
export const insertTriggers = async (tx: Queryable, triggers: TriggerToRecord[], receivedAt: Date): Promise<Set<string>> => {
  if (triggers.length === 0) return new Set();
  const { rows } = await tx.query<{ id: string }>(`${INSERT_TRIGGERS} returning id`, triggerColumns(triggers, receivedAt));
  return new Set(rows.map((row) => row.id));
};

/** The same, answering nothing: a plain write, which a group commit holds and sends with its others. */
export const storeTriggers = async (tx: Queryable, triggers: TriggerToRecord[], receivedAt: Date): Promise<void> => {
  if (triggers.length === 0) return;
  await tx.query(INSERT_TRIGGERS, triggerColumns(triggers, receivedAt));
};

/** Marks every unsettled trigger a file as of `asOf` shows as settled by that pull. */
export const settleTriggers = async (tx: Queryable, userId: string, asOf: Date, settledBy: string, at: Date): Promise<void> => {
  await tx.query(
    `update bureau_triggers set settled_at = $4, settled_by = $3
     where user_id = $1 and settled_at is null and effective_at <= $2`,
    [userId, asOf, settledBy, at],
  );
};

/** The feed's cursor, and when it was last read. */
export const feedCursor = async (db: Queryable, feed: string): Promise<string | null> => {
  const { rows } = await db.query<{ cursor: string | null }>('select cursor from bureau_trigger_feed where feed = $1', [feed]);
  return rows[0]?.cursor ?? null;
};

/**
 * Moves the cursor from `from` to `to`, only if no other reader moved it first (then its transaction is given up: that
 * reader stored the same triggers).
 */
export const advanceFeedCursor = async (
  tx: Queryable,
  feed: string,
  move: { from: string | null; to: string | null; at: Date },
): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `insert into bureau_trigger_feed (feed, cursor, read_at) values ($1, $3, $4)
     on conflict (feed) do update set cursor = excluded.cursor, read_at = excluded.read_at
       where bureau_trigger_feed.cursor is not distinct from $2`,
    [feed, move.from, move.to, move.at],
  );
  return rowCount === 1;
};

/** The monitored state of the users a page of triggers names: only these are scheduled; the rest leave monitoring. */
export const monitoredUsers = async (db: Queryable, userIds: string[]): Promise<Map<string, string>> => {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; client_id: string }>(
    `select id, client_id from users
     where id = any($1::text[]) and deleted_at is null and status = 'active' and monitoring_next_attempt_at is not null
       and consent_valid_until is not null`,
    [userIds],
  );
  return new Map(rows.map((row) => [row.id, row.client_id]));
};
