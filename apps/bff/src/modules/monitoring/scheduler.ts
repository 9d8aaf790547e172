import type { AppContext } from '../../context.ts';
import { type PollLoop, startPollLoop } from '../../lib/poll-loop.ts';
import { type ClaimedUser, claimDueUsers, type RefreshOutcome, refreshClaimedBatch } from './service.ts';
import { MonitoringSlots } from './slots.ts';

export interface BatchReport {
  claimed: number;
  outcomes: Record<RefreshOutcome, number>;
  /** Milliseconds each claimed user took, pull and commit. */
  durationsMs: number[];
}

const emptyOutcomes = (): Record<RefreshOutcome, number> => ({ refreshed: 0, frozen: 0, skipped: 0, failed: 0 });
const emptyReport = (): BatchReport => ({ claimed: 0, outcomes: emptyOutcomes(), durationsMs: [] });

/** Adds one batch's counts and timings to a running total. */
const addBatch = (total: BatchReport, batch: BatchReport) => {
  total.claimed += batch.claimed;
  for (const key of Object.keys(batch.outcomes) as RefreshOutcome[]) total.outcomes[key] += batch.outcomes[key];
  total.durationsMs.push(...batch.durationsMs);
};

/**
 * Claims one batch of due users and refreshes them, MONITORING_CONCURRENCY at a time (or in the worker's shared
 * `slots`, in their turn). A refresh that throws (a database failure) leaves its lease to run out, so the user is taken
 * again later; it never stops the batch.
 */
export const runMonitoringBatch = async (ctx: AppContext, slots?: MonitoringSlots): Promise<BatchReport> => {
  const report = emptyReport();
  let leaseUntil = 0;
  const claim = async (): Promise<ClaimedUser[]> => {
    // A worker stopping while this batch waited for its turn leaves the users for the next pass.
    if (slots?.closed) return [];
    const now = ctx.clock.now();
    leaseUntil = now.getTime() + ctx.config.MONITORING_LEASE_SECONDS * 1000;
    return claimDueUsers(ctx.db, now, new Date(leaseUntil), ctx.config.MONITORING_BATCH_SIZE);
  };
  // A user whose turn comes too late to finish inside the lease is left alone: the lease runs out and another pass takes
  // it, rather than two workers pulling it at once. A quarter of the lease covers one pull with its retries.
  const refresh = (claimed: ClaimedUser[]) => {
    report.claimed = claimed.length;
    const lastStart = leaseUntil - (ctx.config.MONITORING_LEASE_SECONDS * 1000) / 4;
    return refreshClaimedBatch(ctx, claimed, {
      slots,
      mayStart: () => ctx.clock.now().getTime() <= lastStart,
      settled: (user, outcome, ms) => {
        if (outcome instanceof Error) {
          report.outcomes.failed += 1;
          ctx.logger.error(
            { err: outcome, userId: user.id },
            'monitoring refresh failed; the lease will expire and it is retried',
          );
        } else report.outcomes[outcome] += 1;
        if (ms > 0) report.durationsMs.push(ms);
      },
    });
  };
  await (slots ? slots.claimThen(claim, refresh) : refresh(await claim()));
  return report;
};

/** Runs batches until none is due: what a test or a one-off cycle calls. */
export const runMonitoringUntilIdle = async (ctx: AppContext): Promise<BatchReport> => {
  const total = emptyReport();
  for (;;) {
    const batch = await runMonitoringBatch(ctx);
    if (batch.claimed === 0) return total;
    addBatch(total, batch);
  }
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/**
 * The worker role's monitoring loops: claim and refresh due users back to back while there are any, else look again
 * every MONITORING_POLL_INTERVAL_MS. MONITORING_BATCHES_IN_FLIGHT loops share the worker's MONITORING_CONCURRENCY
 * slots, so one batch's pulls start while the batch before waits for its last pulls and its final commit, rather than
 * the worker's slots idling at each batch's end. Logs one line per busy stretch with counts and per-user timings (the
 * bench reads it).
 */
export const startMonitoring = (ctx: AppContext): PollLoop => {
  let window: BatchReport = emptyReport();
  const flush = () => {
    if (window.claimed === 0) return;
    const sorted = [...window.durationsMs].sort((a, b) => a - b);
    ctx.logger.info(
      {
        claimed: window.claimed,
        ...window.outcomes,
        p50Ms: Math.round(percentile(sorted, 0.5) * 10) / 10,
        p99Ms: Math.round(percentile(sorted, 0.99) * 10) / 10,
      },
      'monitoring progress',
    );
    window = emptyReport();
  };
  let lastFlush = performance.now();
  let busy = false;
  /** Loops inside a batch: the busy stretch ends when one finds nothing due while no other is still at work. */
  let working = 0;
  const slots = new MonitoringSlots(ctx.config.MONITORING_CONCURRENCY);
  const pass = async () => {
    let batch: BatchReport | undefined;
    working += 1;
    try {
      batch = await runMonitoringBatch(ctx, slots);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'monitoring claim failed; will retry');
    } finally {
      working -= 1;
    }
    if (batch && batch.claimed > 0) {
      busy = true;
      ctx.logger.debug({ claimed: batch.claimed, ...batch.outcomes }, 'monitoring batch');
      addBatch(window, batch);
      if (performance.now() - lastFlush >= 5_000) {
        flush();
        lastFlush = performance.now();
      }
      return true;
    }
    if (working > 0) return false;
    flush();
    lastFlush = performance.now();
    if (busy) ctx.logger.debug('monitoring idle');
    busy = false;
    return false;
  };
  const loops = Array.from({ length: ctx.config.MONITORING_BATCHES_IN_FLIGHT }, () =>
    startPollLoop(ctx.config.MONITORING_POLL_INTERVAL_MS, pass),
  );
  return {
    stop: async () => {
      slots.close();
      await Promise.all(loops.map((loop) => loop.stop()));
      flush();
    },
  };
};
