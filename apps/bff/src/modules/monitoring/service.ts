import type { TCreditScoreRefreshResult } from '@credit/contract';
import { MANUAL_REFRESH_INTERVAL_HOURS } from '@credit/contract';
import { BureauUnavailableError } from '../../bureau/http/errors.ts';
import type { CreditFileResult } from '../../bureau/provider.ts';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { StatementBatch } from '../../db/statement-batch.ts';
import { creditScoreOf, getCurrentScore, loadFileOnRecord, requireActiveUser } from '../credit/service.ts';
import {
  type ClaimedUser,
  claimManualRefresh,
  claimUsersDueForRefresh,
  completePeriod,
  deferForConsent,
  endManualRefreshLease,
  findConsentGate,
  loadCreditSubject,
  manualRefreshSlot,
  markFrozen,
  markRefreshed,
  recordFailedAttempt,
  releaseManualRefresh,
  skipPeriod,
  type UserRow,
  unschedule,
  writeUser,
} from '../users/service.ts';
import { commitPulledFile, type DropReason } from './apply-pull.ts';
import { type SnapshotToSave, saveSnapshot } from './repo.ts';

export { type ClaimedUser, dueOnClock } from '../users/service.ts';

export type RefreshOutcome = 'refreshed' | 'frozen' | 'skipped' | 'failed';

const HOUR_MS = 3_600_000;

/**
 * How long a due user without current consent is put aside before the claim looks at it again. Without this, users whose
 * consent expired would stay at the head of the due index and every claim would read past all of them; with it each is
 * read once a day. A user who gives consent again is refreshed at the next look (refresh now pulls at once).
 */
export const CONSENT_RECHECK_MS = 24 * 3_600_000;

/**
 * Claims up to `limit` users whose refresh is due, oldest first, holding each until `leaseUntil`; a due user without
 * current consent at `now` is answered with `consented: false` and put aside for CONSENT_RECHECK_MS.
 */
export const claimDueUsers = (db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedUser[]> =>
  claimUsersDueForRefresh(db, { now, leaseUntil, limit, consentRecheckAt: new Date(now.getTime() + CONSENT_RECHECK_MS) });

/**
 * Writes the snapshot a pull leaves (monitoring's table) and the user row's schedule (`writeRow`, through the users
 * module) as one statement: one round trip, as one write (db/statement-batch.ts).
 */
const withSnapshot = async (
  tx: Queryable,
  userId: string,
  snapshot: SnapshotToSave | undefined,
  writeRow: (batch: Queryable) => Promise<void>,
): Promise<void> => {
  if (!snapshot) return writeRow(tx);
  const batch = new StatementBatch();
  await saveSnapshot(batch, userId, snapshot);
  await writeRow(batch);
  await batch.run(tx);
};

const bureauOf = (ctx: AppContext) => {
  if (!ctx.bureau) throw new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau is not available in this environment.');
  return ctx.bureau;
};

/**
 * When the claimed period was due. The schedule steps from the last due date (due + MONITORING_INTERVAL), not from the
 * anchor, so a change of MONITORING_INTERVAL applies from each user's next period instead of moving every due date.
 */
const dueOf = (ctx: AppContext, user: ClaimedUser) =>
  user.monitoring_due_at
    ? new Date(user.monitoring_due_at)
    : new Date(new Date(user.monitoring_anchor_at).getTime() + user.monitoring_period * ctx.config.MONITORING_INTERVAL);

/**
 * The period a pull made now covers and when the one after it is due: the claimed period, or, when later ones are
 * overdue too (workers were down), the latest of them: one pull of today's file covers them all.
 */
const periodsAt = (ctx: AppContext, user: ClaimedUser, now: Date) => {
  const interval = ctx.config.MONITORING_INTERVAL;
  const due = dueOf(ctx, user).getTime();
  const overdue = Math.max(0, Math.floor((now.getTime() - due) / interval));
  return { period: user.monitoring_period + overdue, nextDueAt: new Date(due + (overdue + 1) * interval) };
};

/** Refusals that the same request will get again (no file for this identity, an answer that breaks the contract). */
const isPermanentRefusal = (error: unknown) =>
  error instanceof BureauUnavailableError && (error.reason === 'rejected' || error.reason === 'invalid_answer');

/** The wait before retrying a failed period: the retry schedule, its last step repeated. */
const retryDelay = (ctx: AppContext, failuresSoFar: number) => {
  const schedule = ctx.config.MONITORING_RETRY_SCHEDULE;
  return schedule[Math.min(failuresSoFar, schedule.length - 1)] ?? HOUR_MS;
};

/**
 * One scheduled refresh of a claimed user: pull the file, then commit everything it causes and the move to the next
 * period in one transaction that first re-checks, under the row lock, that the period is still the one claimed and the
 * user still monitored. So a period commits once whatever races it (another worker after a lease ran out, a retried
 * batch), and a user deleted or un-verified meanwhile is skipped without a write.
 *
 * Real time: when several periods are overdue (workers were down), one pull of today's file covers them all; a bureau
 * sells no past files, and the comparison with the last snapshot still sees every change in between.
 * A sandbox test clock's advance runs each period with `ctx.clock` scoped to the period's due time (modules/clocks),
 * so "now" is that time: the period is exactly the claimed one, pulled as of then, everything dated then.
 */
export const refreshClaimedUser = async (ctx: AppContext, user: ClaimedUser): Promise<RefreshOutcome> => {
  const now = ctx.clock.now();
  const claimedPeriod = user.monitoring_period;
  const { period, nextDueAt } = periodsAt(ctx, user, now);
  // Without current consent nothing is pulled: the claim has already put the user aside (no attempt counted).
  if (!user.consented) return 'skipped';
  if (user.status !== 'active') {
    await unschedule(ctx.db, user.id);
    return 'skipped';
  }

  let result: CreditFileResult;
  // Keyed by the period: a request repeated after a crash is the same pull to the bureau, billed once.
  const pullId = `${user.id}:period:${period}`;
  try {
    // The claimed row's consent is as of the claim: the gate is read again (one primary-key read) so a withdrawal since
    // then stops the pull itself, not only its commit.
    const gate = await findConsentGate(ctx.db, user.id);
    result = await bureauOf(ctx).pullCreditFile(await loadCreditSubject(ctx, { ...user, ...gate }), now, { pullId });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CONSENT_REQUIRED') {
      // Consent ended between the claim and the pull: a skip, not a failed pull.
      await deferForConsent(ctx.db, user.id, claimedPeriod, new Date(now.getTime() + CONSENT_RECHECK_MS));
      return 'skipped';
    }
    const attempt = user.monitoring_attempts + 1;
    const reason = error instanceof BureauUnavailableError ? error.reason : (error as Error).name;
    if (isPermanentRefusal(error) && attempt > ctx.config.MONITORING_RETRY_SCHEDULE.length) {
      // The bureau kept refusing this user's pull through the whole retry schedule: the period cannot be had, so the
      // user moves on to the next one (due as usual) instead of being asked again every few hours forever.
      await skipPeriod(ctx.db, user.id, claimedPeriod, { nextPeriod: period + 1, dueAt: nextDueAt });
      ctx.logger.error(
        { userId: user.id, period: claimedPeriod, attempt, reason, nextRefreshAt: nextDueAt },
        'monitoring pull refused after every retry; the period is skipped',
      );
      return 'failed';
    }
    const retryAt = new Date(now.getTime() + retryDelay(ctx, user.monitoring_attempts));
    await recordFailedAttempt(ctx.db, user.id, claimedPeriod, retryAt);
    // Warn while it may be the bureau's passing trouble; past the schedule's end it needs an operator's look.
    const level = attempt > ctx.config.MONITORING_RETRY_SCHEDULE.length ? 'error' : 'warn';
    ctx.logger[level](
      { userId: user.id, period: claimedPeriod, attempt, retryAt, reason },
      'monitoring pull failed; the period will be retried',
    );
    return 'failed';
  }

  return writeUser(ctx, async (tx, touches) => {
    const committed = await commitPulledFile(tx, ctx, user, {
      result,
      asOf: now,
      source: 'monitoring',
      pullId,
      period: claimedPeriod,
    });
    if (committed.outcome === 'dropped') {
      if (committed.reason === 'period_moved') return 'skipped';
      if (committed.reason === 'no_consent') {
        // Consent ended while the file was being pulled: the file is dropped unused and the period waits like the
        // claim's consent skip, with no attempt counted.
        await deferForConsent(tx, user.id, claimedPeriod, new Date(now.getTime() + CONSENT_RECHECK_MS));
        return 'skipped';
      }
      await unschedule(tx, user.id);
      return 'skipped';
    }
    touches(userTag(user.id));
    const next = { nextPeriod: period + 1, dueAt: nextDueAt };
    if (committed.outcome === 'frozen') {
      await completePeriod(tx, user.id, { ...next, refreshedAt: null, pausedReason: 'credit_frozen' });
      return 'frozen';
    }
    await withSnapshot(tx, user.id, committed.applied?.snapshot, (batch) =>
      completePeriod(batch, user.id, { ...next, refreshedAt: now, pausedReason: null }),
    );
    return 'refreshed';
  });
};

/**
 * Verification's pull is monitoring's first refresh (period 0): the file verification pulled is committed as period 0
 * in verification's transaction (history, the first pull's alerts, the file on record) and period 1 is due one interval
 * after verification, so the first period is never pulled a second time. A user whose schedule is past period 0 (a
 * step-up verification that pulled because no file was on record) keeps their schedule; the file only becomes the file
 * on record. A file dropped (consent ended meanwhile) leaves period 0 due: the monitoring job pulls it.
 * Runs in the caller's transaction, which holds the user row and has just marked the user verified.
 */
export const applyVerificationPull = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  result: CreditFileResult,
  at: Date,
  pullId: string,
): Promise<void> => {
  const committed = await commitPulledFile(tx, ctx, user, { result, asOf: at, source: 'verification', pullId });
  if (committed.outcome === 'dropped') return;
  const firstPeriod = committed.state.monitoring_period === 0;
  const next = { nextPeriod: 1, dueAt: new Date(at.getTime() + ctx.config.MONITORING_INTERVAL) };
  if (committed.outcome === 'frozen') {
    if (firstPeriod) await completePeriod(tx, user.id, { ...next, refreshedAt: null, pausedReason: 'credit_frozen' });
    else await markFrozen(tx, user.id);
    return;
  }
  if (firstPeriod) {
    await withSnapshot(tx, user.id, committed.applied?.snapshot, (batch) =>
      completePeriod(batch, user.id, { ...next, refreshedAt: at, pausedReason: null }),
    );
  } else {
    await withSnapshot(tx, user.id, committed.applied?.snapshot, (batch) => markRefreshed(batch, user.id, at));
  }
};

/** What refresh now answers when its file was dropped: the state that made the commit refuse it. */
const droppedError = (reason: DropReason) => {
  if (reason === 'deleted') return notFound('User');
  if (reason === 'no_consent') {
    return new ApiError(
      'CONSENT_REQUIRED',
      'The consumer’s consent ended while the file was being pulled; nothing was recorded. Record consent again first.',
    );
  }
  return new ApiError('USER_NOT_ENROLLED', 'The user is no longer verified; nothing was recorded.');
};

const frozenError = () =>
  new ApiError(
    'CREDIT_FROZEN',
    'This user’s credit file is frozen at the bureau. The user must lift the freeze before it can be refreshed.',
  );

/**
 * Refresh now: one pull outside the schedule, at most one per user per day (a pull is billed). The day's slot is taken
 * before the pull, so two concurrent calls never pull twice; it is given back if the pull fails or finds the file frozen,
 * and frees itself if the process stops mid-pull (after MONITORING_LEASE_SECONDS, the claim's lease).
 */
export const refreshNow = async (ctx: AppContext, caller: Caller, userId: string): Promise<TCreditScoreRefreshResult> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const bureau = bureauOf(ctx);
  const now = ctx.clock.now();
  const windowMs = MANUAL_REFRESH_INTERVAL_HOURS * HOUR_MS;
  // Claimed and given back through writeUser: the user row the read cache holds shows the slot (refreshAvailableAt).
  // The claim's lease is the monitoring job's: a pull still unanswered after it is taken to have died with its process.
  const claim = await writeUser(ctx, async (tx, touches) => {
    touches(userTag(user.id));
    return claimManualRefresh(tx, user.id, {
      now,
      cutoff: new Date(now.getTime() - windowMs),
      pendingUntil: new Date(now.getTime() + ctx.config.MONITORING_LEASE_SECONDS * 1000),
    });
  });
  if (!claim) {
    // While a pull holds the slot, the answer is known once it ends or its lease passes; otherwise, a day after the last.
    const slot = await manualRefreshSlot(ctx.db, user.id);
    const pending = slot.pendingUntil && new Date(slot.pendingUntil).getTime() > now.getTime() ? slot.pendingUntil : null;
    const until = pending ? new Date(pending).getTime() : new Date(slot.at ?? now).getTime() + windowMs;
    const retryAfter = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    throw new ApiError(
      'RATE_LIMIT_EXCEEDED',
      pending
        ? `A refresh of this user’s credit file is under way; retry after ${retryAfter} s.`
        : `This user’s credit file was refreshed less than ${MANUAL_REFRESH_INTERVAL_HOURS} hours ago; retry after ${retryAfter} s.`,
      undefined,
      { retryAfter },
    );
  }
  // The caller's answer is the pull's failure: a failure to give the slot back is logged, not answered instead.
  const giveBack = () =>
    writeUser(ctx, async (tx, touches) => {
      touches(userTag(user.id));
      await releaseManualRefresh(tx, user.id, now, claim.previous);
    }).catch((error: unknown) => {
      ctx.logger.error({ err: error, userId: user.id }, 'refresh now could not give back the day’s slot');
    });

  let result: CreditFileResult;
  // Taking over a dead pull's slot, ask as that pull did: if it reached the bureau, the bureau bills it once.
  const pullId = `${user.id}:refresh:${(claim.takenOverFrom ? new Date(claim.takenOverFrom) : now).toISOString()}`;
  try {
    result = await bureau.pullCreditFile(await loadCreditSubject(ctx, user), now, { pullId });
  } catch (error) {
    await giveBack();
    throw error;
  }
  if (result.status === 'frozen') {
    await giveBack();
    await writeUser(ctx, async (tx, touches) => {
      touches(userTag(user.id));
      await markFrozen(tx, user.id);
    });
    throw frozenError();
  }
  const committed = await writeUser(ctx, async (tx, touches) => {
    touches(userTag(user.id));
    const outcome = await commitPulledFile(tx, ctx, user, { result, asOf: now, source: 'refresh', pullId });
    if (outcome.outcome === 'committed') {
      await withSnapshot(tx, user.id, outcome.applied?.snapshot, (batch) => markRefreshed(batch, user.id, now));
    }
    // A file dropped unused was still bought: the day's slot stays taken, and its lease ends.
    else await endManualRefreshLease(tx, user.id, now);
    return outcome;
  });
  if (committed.outcome === 'dropped') throw droppedError(committed.reason);
  const applied = committed.outcome === 'committed' ? committed.applied : undefined;
  // The file just committed (the user row read before the pull may still say frozen); a newer one if it won the race.
  const record = applied ? { file: result.file, asOf: now } : await loadFileOnRecord(ctx, user.id);
  if (!record) throw new ApiError('SERVICE_UNAVAILABLE', 'The refreshed file could not be read back; try again shortly.');
  // A newer scheduled pull committed first: the score on file is already newer than this pull's.
  const current = applied ?? { ...(await getCurrentScore(ctx, user)), previousScore: null };
  const score = await creditScoreOf(ctx, user, record, { score: current.score, scoreDate: current.scoreDate });
  return {
    ...score,
    previousScore: current.previousScore,
    refreshAvailableAt: new Date(now.getTime() + windowMs).toISOString(),
  };
};
