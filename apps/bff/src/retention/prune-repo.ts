import type { Queryable } from '../db/db.ts';

/**
 * One chunk per statement, each picking its rows with SKIP LOCKED so that workers sweeping at the same time split the
 * work instead of queueing on each other's rows. `$1` is the cutoff, `$2` the chunk size.
 */
const CHUNKS = {
  // The attempt log first: its deliveries' cascade then finds nothing left to delete.
  webhookAttempts: `delete from webhook_attempts where seq in (
      select seq from webhook_attempts where delivered_at < $1 limit $2 for update skip locked)`,
  // Settled, or parked on a subscription that is not active: a delivery still owed (retries run for about a day) keeps
  // its row and its attempts; one waiting for a re-activation past the retention is out of recover's reach anyway.
  webhookDeliveries: `delete from webhook_deliveries where id in (
      select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.created_at < $1 and (d.state <> 'pending' or w.status <> 'active')
      limit $2 for update of d skip locked)`,
  // Fanned out, and no delivery of it still owed: the dispatcher reads an event's data at every attempt.
  outbox: `delete from outbox_events where seq in (
      select o.seq from outbox_events o
      where o.created_at < $1 and o.dispatched_at is not null
        and not exists (select 1 from webhook_deliveries d where d.event_id = o.id and d.state = 'pending')
      limit $2 for update of o skip locked)`,
  alerts: `delete from alerts where id in (
      select id from alerts where created_at < $1 limit $2 for update skip locked)`,
  // An item still on the file is in the stored snapshot too, so comparing never re-detects it: the key is only needed
  // while something could leave the file and come back, and goes with the alert it guarded.
  alertKeys: `delete from monitoring_alert_keys where (user_id, key) in (
      select user_id, key from monitoring_alert_keys where created_at < $1 limit $2 for update skip locked)`,
  scoreHistory: `delete from score_history where seq in (
      select seq from score_history where score_date < $1::date limit $2 for update skip locked)`,
} as const;

export type RetentionTarget = keyof typeof CHUNKS;
/** Every table the sweep prunes, in the order it prunes them. */
export const RETENTION_TARGETS = Object.keys(CHUNKS) as RetentionTarget[];

/** Deletes one chunk of `target`'s rows older than `cutoff`; answers how many it deleted. */
export const deleteExpiredChunk = async (
  db: Queryable,
  target: RetentionTarget,
  cutoff: Date,
  chunkRows: number,
): Promise<number> => (await db.query(CHUNKS[target], [cutoff, chunkRows])).rowCount;
