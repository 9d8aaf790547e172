import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/db.ts';
import { pruneAuditTrails } from '../modules/audit/service.ts';
import { type RetentionCutoffs, retentionCutoffs } from './policy.ts';
import { deleteExpiredChunk, RETENTION_TARGETS, type RetentionTarget } from './prune-repo.ts';

/** Rows one statement deletes: short transactions, row locks only, never a lock on the whole table. */
export const RETENTION_CHUNK_ROWS = 2_000;
/** Chunks per table per sweep: a first sweep over a large backlog stops here and the next sweep goes on. */
const MAX_CHUNKS_PER_SWEEP = 250;

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

const deleteInChunks = async (db: Queryable, target: RetentionTarget, cutoff: Date, chunkRows: number): Promise<number> => {
  let deleted = 0;
  for (let chunk = 0; chunk < MAX_CHUNKS_PER_SWEEP; chunk++) {
    const rowCount = await deleteExpiredChunk(db, target, cutoff, chunkRows);
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
  for (const target of RETENTION_TARGETS) {
    report[target] = await deleteInChunks(ctx.db, target, cutoffOf(cutoffs, target), chunkRows);
  }
  report.auditEntries = await pruneAuditTrails(ctx, cutoffs.audit, chunkRows);
  return report;
};
