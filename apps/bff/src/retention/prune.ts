import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { pruneAuditTrails } from '../modules/audit/service.ts';
import { type RetentionCutoffs, retentionCutoffs } from './policy.ts';

/** Rows one statement deletes: short transactions, row locks only, never a lock on the whole table. */
export const RETENTION_CHUNK_ROWS = 2_000;
/** Chunks per table per sweep: a first sweep over a large backlog stops here and the next sweep goes on. */
const MAX_CHUNKS_PER_SWEEP = 250;

/**
 * One chunk per statement, each picking its rows with SKIP LOCKED so that workers sweeping at the same time split the
 * work instead of queueing on each other's rows. `$1` is the cutoff, `$2` the chunk size.
 */
const CHUNKS = {
  // The attempt log first: its deliveries' cascade then finds nothing left to delete.
  webhookAttempts: `delete from webhook_attempts where seq in (
      select seq from webhook_attempts where delivered_at < $1 limit $2 for update skip locked)`,
  // Settled only: a delivery still owed (retries run for about a day) keeps its row and its attempts.
  webhookDeliveries: `delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < $1 and state <> 'pending' limit $2 for update skip locked)`,
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
/** Rows deleted per table; `auditEntries`: audit trail entries pruned under a signed checkpoint (modules/audit). */
export type RetentionReport = Record<RetentionTarget | 'auditEntries', number>;

const cutoffOf = (cutoffs: RetentionCutoffs, target: RetentionTarget): Date => {
  switch (target) {
    case 'webhookAttempts':
    case 'webhookDeliveries':
      return cutoffs.webhookLog;
    case 'outbox':
      return cutoffs.outbox;
    case 'alerts':
    case 'alertKeys':
      return cutoffs.alerts;
    case 'scoreHistory':
      return cutoffs.scoreHistory;
  }
};

const deleteInChunks = async (db: Queryable, sql: string, cutoff: Date, chunkRows: number): Promise<number> => {
  let deleted = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS_PER_SWEEP; chunk++) {
    const { rowCount } = await db.query(sql, [cutoff, chunkRows]);
    deleted += rowCount;
    if (rowCount < chunkRows) break;
  }
  return deleted;
};

/**
 * Deletes what has outlived its documented age (docs/operator/monitoring.md, "Retention"): settled webhook deliveries
 * and attempts after WEBHOOK_LOG_RETENTION_DAYS, settled outbox events after OUTBOX_RETENTION_DAYS, alerts and alert
 * keys after ALERT_RETENTION_MONTHS, score history dated more than 84 months back (the longest history the API serves).
 * Credit snapshots need nothing: one row per user, replaced by each pull, erased with the user.
 */
export const pruneExpired = async (ctx: AppContext, options: { chunkRows?: number } = {}): Promise<RetentionReport> => {
  const cutoffs = retentionCutoffs(ctx.config, ctx.clock.now());
  const chunkRows = options.chunkRows ?? RETENTION_CHUNK_ROWS;
  const report = {} as RetentionReport;
  for (const target of Object.keys(CHUNKS) as RetentionTarget[]) {
    report[target] = await deleteInChunks(ctx.db, CHUNKS[target], cutoffOf(cutoffs, target), chunkRows);
  }
  report.auditEntries = await pruneAuditTrails(ctx, cutoffs.audit, chunkRows);
  return report;
};
