import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { contextAt } from '../../core/request-scope.ts';
import { realNow } from '../../lib/clock.ts';
import { eachLimited, type PollLoop, startPollLoop } from '../../lib/poll-loop.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { type ClaimedUser, dueOnClock, type RefreshOutcome, refreshClaimedUser } from '../monitoring/service.ts';
import { pausedUsersOnClock, writeUser } from '../users/service.ts';
import { type ClaimedAdvance, claimAdvance, clockUserIds, extendLease, finishAdvance } from './repo.ts';

/** How soon an advance whose pull failed is taken up again (its finished periods stay done). */
const RETRY_AFTER_FAILURE_MS = 5_000;

export interface AdvanceReport {
  clocks: number;
  outcomes: Record<RefreshOutcome, number>;
}

const leaseEnd = (ctx: AppContext) => new Date(realNow(ctx.clock).getTime() + ctx.config.MONITORING_LEASE_SECONDS * 1000);

/**
 * A clock user's next period or trigger, whichever comes first, exactly as the scheduler would have run it then: the
 * refresh runs on a context frozen at that time, which everything it does reads (the pull's as-of date, the history
 * point, alerts, events), so a change's alert is dated on the change's day. What was already overdue when the advance began runs
 * once, coalesced at the clock's old time, as real time does after an outage.
 */
const runPeriod = (ctx: AppContext, advance: ClaimedAdvance, user: ClaimedUser): Promise<RefreshOutcome> => {
  const periodDue = new Date(user.monitoring_due_at ?? advance.frozen_time).getTime();
  const due = user.trigger_due_at ? Math.min(periodDue, new Date(user.trigger_due_at).getTime()) : periodDue;
  const at = new Date(Math.max(due, new Date(advance.frozen_time).getTime()));
  return refreshClaimedUser(contextAt(ctx, at), user);
};

/**
 * Runs a claimed advance to its end: round after round, every user's next due period up to the target (so each user's
 * periods run in order), then the clock moves to the target, becomes `ready` and `sandbox.clock.ready` is recorded, in
 * one transaction. Exactly once per period holds as for the scheduler: a refresh commits only if the period is still
 * the one it read, under the row lock. A failed pull stops the advance; it is taken up again shortly.
 */
const runAdvance = async (ctx: AppContext, advance: ClaimedAdvance, report: AdvanceReport): Promise<void> => {
  const target = new Date(advance.target_time);
  for (;;) {
    const due = await dueOnClock(ctx.db, advance.id, new Date(advance.frozen_time), target, 100);
    if (due.length === 0) break;
    let failed = 0;
    await eachLimited(due, ctx.config.MONITORING_CONCURRENCY, async (user) => {
      const outcome = await runPeriod(ctx, advance, user);
      report.outcomes[outcome] += 1;
      if (outcome === 'failed') failed += 1;
    });
    if (failed > 0 || !(await extendLease(ctx.db, advance, leaseEnd(ctx)))) {
      await extendLease(ctx.db, advance, new Date(realNow(ctx.clock).getTime() + RETRY_AFTER_FAILURE_MS));
      ctx.logger.warn({ clockId: advance.id, failed }, 'clock advance interrupted; it is taken up again later');
      return;
    }
  }
  const finished = await writeUser(ctx, async (tx, touches) => {
    if (!(await finishAdvance(tx, advance, realNow(ctx.clock)))) return false;
    touches(...(await clockUserIds(tx, advance.id)).map(userTag));
    // Read after the clock moved: who is paused at its new time (a consent that expired during the advance).
    const pausedUsers = await pausedUsersOnClock(tx, advance.id, realNow(ctx.clock));
    await recordEvent(tx, ctx.ids, {
      clientId: advance.client_id,
      type: 'sandbox.clock.ready',
      data: { clockId: advance.id, frozenTime: target.toISOString(), pausedUsers },
      createdAt: realNow(ctx.clock),
    });
    return true;
  });
  if (finished) report.clocks += 1;
};

/** Claims and runs advancing clocks one after another until none is left to take: what a test or a worker pass calls. */
export const runClockAdvancesUntilIdle = async (ctx: AppContext): Promise<AdvanceReport> => {
  const report: AdvanceReport = { clocks: 0, outcomes: { refreshed: 0, frozen: 0, skipped: 0, failed: 0 } };
  for (;;) {
    const advance = await claimAdvance(ctx.db, realNow(ctx.clock), leaseEnd(ctx));
    if (!advance) return report;
    const started = performance.now();
    await runAdvance(ctx, advance, report);
    ctx.logger.info(
      { clockId: advance.id, to: advance.target_time, ms: Math.round(performance.now() - started), ...report.outcomes },
      'clock advance',
    );
  }
};

/** The worker role's loop over clock advances: look every MONITORING_POLL_INTERVAL_MS, run what is claimable. */
export const startClockAdvances = (ctx: AppContext): PollLoop =>
  startPollLoop(ctx.config.MONITORING_POLL_INTERVAL_MS, async () => {
    try {
      await runClockAdvancesUntilIdle(ctx);
    } catch (error) {
      ctx.logger.warn({ err: error }, 'clock advance failed; its lease runs out and it is taken up again');
    }
    return false;
  });
