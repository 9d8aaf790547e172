import type { TCreditScoreRefreshResult } from '@credit/contract';
import { MANUAL_REFRESH_INTERVAL_HOURS } from '@credit/contract';
import { BureauUnavailableError } from '../../bureau/errors.ts';
import type { CreditFileResult } from '../../bureau/provider.ts';
import type { WriteTx } from '../../cache/invalidation.ts';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound } from '../../core/api-error.ts';
import type { Caller, MonitoringCadence } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { WriteBehind } from '../../db/write-behind.ts';
import { AuditCollector } from '../audit/service.ts';
import { clientMonitoringCadence } from '../clients/service.ts';
import { creditScoreOf, getCurrentScore, loadFileOnRecord, requireActiveUser } from '../credit/service.ts';
import { ScoreBandTally } from '../program/service.ts';
import {
  type ClaimedUser,
  type ConsentColumns,
  claimManualRefresh,
  claimUsersDueForRefresh,
  completePeriod,
  deferForConsent,
  endManualRefreshLease,
  findConsentGate,
  findConsentGates,
  finishTriggeredPull,
  loadCreditSubject,
  manualRefreshSlot,
  markFrozen,
  markRefreshed,
  recordFailedAttempt,
  refreshTriggerDue,
  releaseManualRefresh,
  retryTrigger,
  skipPeriod,
  type UserRow,
  unschedule,
  writeUser,
} from '../users/service.ts';
import { commitPulledFile, type DropReason } from './apply-pull.ts';
import { dueOfPeriod, nextDueAfter, type Schedule } from './cadence.ts';
import { AlertKeyClaims, lockRefreshStates, type RefreshState } from './repo.ts';
import { MonitoringSlots } from './slots.ts';

export { type ClaimedUser, dueOnClock } from '../users/service.ts';
export { periodDays } from './cadence.ts';

export type RefreshOutcome = 'refreshed' | 'frozen' | 'skipped' | 'failed';

const HOUR_MS = 3_600_000;

/** Puts aside due users without consent, so they do not sit at the head of the due index for every claim to read past. */
export const CONSENT_RECHECK_MS = 24 * 3_600_000;

/** Claims due users, oldest first; those without consent come back `consented: false`, put aside for CONSENT_RECHECK_MS. */
export const claimDueUsers = (db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedUser[]> =>
  claimUsersDueForRefresh(db, { now, leaseUntil, limit, consentRecheckAt: new Date(now.getTime() + CONSENT_RECHECK_MS) });

const bureauOf = (ctx: AppContext) => {
  if (!ctx.bureau) throw new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau is not available in this environment.');
  return ctx.bureau;
};

const scheduleOf = (ctx: AppContext, cadence: MonitoringCadence, anchor: Date): Schedule => ({
  cadence,
  fixedIntervalMs: ctx.config.MONITORING_INTERVAL,
  anchor: new Date(anchor),
});

/** Steps from the last due date, not the anchor, so a cadence change applies from each user's next period. */
const dueOf = (user: ClaimedUser, schedule: Schedule) =>
  user.monitoring_due_at ? new Date(user.monitoring_due_at) : dueOfPeriod(user.monitoring_period, schedule);

/** When several periods are overdue (workers were down), one pull of today's file covers them all. */
const periodsAt = (ctx: AppContext, user: ClaimedUser, now: Date) => {
  const schedule = scheduleOf(ctx, user.monitoring_cadence, user.monitoring_anchor_at);
  let overdue = 0;
  let nextDueAt = nextDueAfter(dueOf(user, schedule), schedule);
  while (nextDueAt.getTime() <= now.getTime()) {
    overdue += 1;
    nextDueAt = nextDueAfter(nextDueAt, schedule);
  }
  return { period: user.monitoring_period + overdue, nextDueAt };
};

/** Refusals that the same request will get again (no file for this identity, an answer that breaks the contract). */
const isPermanentRefusal = (error: unknown) =>
  error instanceof BureauUnavailableError && (error.reason === 'rejected' || error.reason === 'invalid_answer');

const retryDelay = (ctx: AppContext, failuresSoFar: number) => {
  const schedule = ctx.config.MONITORING_RETRY_SCHEDULE;
  return schedule[Math.min(failuresSoFar, schedule.length - 1)] ?? HOUR_MS;
};

/** A period's file, bought and not yet committed. */
interface PulledPeriod {
  user: ClaimedUser;
  now: Date;
  claimedPeriod: number;
  period: number;
  nextDueAt: Date;
  pullId: string;
  result: CreditFileResult;
}

type PeriodPull = { outcome: RefreshOutcome } | { pulled: PulledPeriod };

/** Whether this claim is for a trigger between periods (a period due as well covers the trigger: one pull). */
const isTriggerClaim = (user: ClaimedUser, now: Date) => {
  const triggerAt = user.trigger_due_at ? new Date(user.trigger_due_at).getTime() : null;
  const periodDue = user.monitoring_due_at === null || new Date(user.monitoring_due_at).getTime() <= now.getTime();
  return triggerAt !== null && triggerAt <= now.getTime() && !periodDue;
};

/**
 * Buys the period's file, or records why not (no consent, a failed or refused pull). Consent is read again just before
 * (`gate`, read with the next few users' by the batch; without it, here), so a withdrawal since the claim stops the pull.
 */
const pullPeriod = async (ctx: AppContext, user: ClaimedUser, now: Date, gate?: ConsentColumns): Promise<PeriodPull> => {
  const claimedPeriod = user.monitoring_period;
  const { period, nextDueAt } = periodsAt(ctx, user, now);
  // The claim has already put a user without consent aside; no attempt is counted.
  if (!user.consented) return { outcome: 'skipped' };
  if (user.status !== 'active') {
    await unschedule(ctx.db, user.id);
    return { outcome: 'skipped' };
  }
  // Keyed by the period: a request repeated after a crash is the same pull to the bureau, billed once.
  const pullId = `${user.id}:period:${period}`;
  try {
    const consent = gate ?? (await findConsentGate(ctx.db, user.id));
    const call = { pullId, clientId: user.client_id, callClass: 'monitoring', monitor: true } as const;
    const result = await bureauOf(ctx).pullCreditFile(await loadCreditSubject(ctx, { ...user, ...consent }), now, call);
    return { pulled: { user, now, claimedPeriod, period, nextDueAt, pullId, result } };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CONSENT_REQUIRED') {
      // Consent ended between the claim and the pull: a skip, not a failed pull.
      await deferForConsent(ctx.db, user.id, claimedPeriod, new Date(now.getTime() + CONSENT_RECHECK_MS));
      return { outcome: 'skipped' };
    }
    const attempt = user.monitoring_attempts + 1;
    const reason = error instanceof BureauUnavailableError ? error.reason : (error as Error).name;
    if (isPermanentRefusal(error) && attempt > ctx.config.MONITORING_RETRY_SCHEDULE.length) {
      // Refused through the whole retry schedule: move on to the next period rather than asking every few hours forever.
      await skipPeriod(ctx.db, user.id, claimedPeriod, { nextPeriod: period + 1, dueAt: nextDueAt });
      ctx.logger.error(
        { userId: user.id, period: claimedPeriod, attempt, reason, nextRefreshAt: nextDueAt },
        'monitoring pull refused after every retry; the period is skipped',
      );
      return { outcome: 'failed' };
    }
    const retryAt = new Date(now.getTime() + retryDelay(ctx, user.monitoring_attempts));
    await recordFailedAttempt(ctx.db, user.id, claimedPeriod, retryAt);
    // Warn while it may be the bureau's passing trouble; past the schedule's end it needs an operator's look.
    const level = attempt > ctx.config.MONITORING_RETRY_SCHEDULE.length ? 'error' : 'warn';
    ctx.logger[level](
      { userId: user.id, period: claimedPeriod, attempt, retryAt, reason },
      'monitoring pull failed; the period will be retried',
    );
    return { outcome: 'failed' };
  }
};

/**
 * Commits one pulled period in the caller's transaction. The commit re-checks under the row lock that the period is
 * still the one claimed and the user still monitored, so a period commits once whatever races it (a lapsed lease, a
 * retried batch) and a user gone meanwhile is skipped.
 */
const commitPeriod = async (
  tx: WriteTx,
  ctx: AppContext,
  pulled: PulledPeriod,
  locked?: { state: RefreshState | undefined },
): Promise<RefreshOutcome> => {
  const { user, now, claimedPeriod, period, nextDueAt, pullId, result } = pulled;
  const next = { nextPeriod: period + 1, dueAt: nextDueAt };
  const committed = await commitPulledFile(
    tx,
    ctx,
    user,
    { result, asOf: now, source: 'monitoring', pullId, period: claimedPeriod },
    {
      committed: (batch, lastScoreDate) =>
        completePeriod(batch, user.id, { ...next, refreshedAt: now, pausedReason: null, lastScoreDate }),
      frozen: (frozenTx) => completePeriod(frozenTx, user.id, { ...next, refreshedAt: null, pausedReason: 'credit_frozen' }),
    },
    locked,
  );
  if (committed.outcome === 'dropped') {
    if (committed.reason === 'period_moved') return 'skipped';
    if (committed.reason === 'no_consent') {
      // Consent ended mid-pull: the file is dropped and the period waits like the claim's consent skip, no attempt counted.
      await deferForConsent(tx, user.id, claimedPeriod, new Date(now.getTime() + CONSENT_RECHECK_MS));
      return 'skipped';
    }
    await unschedule(tx, user.id);
    return 'skipped';
  }
  tx.touches(userTag(user.id));
  return committed.outcome === 'frozen' ? 'frozen' : 'refreshed';
};

/** One claimed user's period (or trigger), pulled and committed in its own transaction. */
export const refreshClaimedUser = async (ctx: AppContext, user: ClaimedUser): Promise<RefreshOutcome> => {
  const now = ctx.clock.now();
  if (isTriggerClaim(user, now)) return refreshTriggeredFile(ctx, user, now);
  const pull = await pullPeriod(ctx, user, now);
  if ('outcome' in pull) return pull.outcome;
  return writeUser(ctx, (tx) => commitPeriod(tx, ctx, pull.pulled));
};

/**
 * The tables whose inserts of a group join one statement: their rows reference only users and clients, which a group
 * never writes, so running a later customer's rows earlier changes nothing another write of the group sees.
 */
const GROUP_MERGED_TABLES = [
  'credit_snapshots',
  'score_history',
  'offer_profiles',
  'program_customer_scores',
  'outbox_events',
  'alerts',
  'monitoring_alert_keys',
];

/**
 * Commits a group of pulled periods in one transaction: their rows locked in one statement, their audit entries
 * spooled as one row, one commit and one wake-up of the dispatcher and the caches. Under the lock each user is
 * re-checked exactly as alone. If the group fails (a deadlock, one user's bad row), each user is committed alone, so
 * one failure costs no other user's period.
 */
const commitGroup = async (ctx: AppContext, group: PulledPeriod[]): Promise<(RefreshOutcome | Error)[]> => {
  try {
    return await writeUser(ctx, async (tx) => {
      const auditCollector = new AuditCollector();
      const scoreBands = new ScoreBandTally();
      const held = new WriteBehind(tx, { mergeInto: GROUP_MERGED_TABLES });
      const ids = group.map((pulled) => pulled.user.id);
      const alertKeys = new AlertKeyClaims(ids);
      const groupTx: WriteTx = Object.assign(held, { touches: tx.touches, auditCollector, scoreBands, alertKeys });
      const states = await lockRefreshStates(groupTx, ids);
      await scoreBands.preload(groupTx, ids);
      const outcomes: RefreshOutcome[] = [];
      for (const pulled of group) outcomes.push(await commitPeriod(groupTx, ctx, pulled, { state: states.get(pulled.user.id) }));
      // Shared rows last, so their locks are held only for the commit's final statements.
      await scoreBands.flush(groupTx);
      await auditCollector.flush(ctx, groupTx);
      await tx.announceThrough?.(held);
      await held.flush();
      return outcomes;
    });
  } catch (error) {
    if (group.length === 1) return [error as Error];
    ctx.logger.warn({ err: error, users: group.length }, 'monitoring group commit failed; committing its users one by one');
    const outcomes: (RefreshOutcome | Error)[] = [];
    for (const pulled of group) {
      outcomes.push(await writeUser(ctx, (tx) => commitPeriod(tx, ctx, pulled)).catch((failure: Error) => failure));
    }
    return outcomes;
  }
};

/**
 * Consent gates read ahead in slices of `slice` users, in the order they are pulled: a slice is read when its first
 * user's turn comes, so each gate is at most one slice's pulls old, in one query per slice instead of one per user.
 */
const consentReadAhead = (ctx: AppContext, users: ClaimedUser[], slice: number) => {
  const position = new Map(users.map((user, i) => [user.id, i]));
  const slices = new Map<number, Promise<Map<string, ConsentColumns>>>();
  const none: ConsentColumns = { consent_valid_until: null, consent_ended: 'required' };
  return async (userId: string): Promise<ConsentColumns> => {
    const index = Math.floor((position.get(userId) ?? 0) / slice);
    let read = slices.get(index);
    if (!read) {
      read = findConsentGates(
        ctx.db,
        users.slice(index * slice, (index + 1) * slice).map((user) => user.id),
      );
      slices.set(index, read);
    }
    return (await read).get(userId) ?? none;
  };
};

export interface ClaimedBatchOptions {
  /** Asked before each user's pull: false leaves the user to its lease (its turn came too late). */
  mayStart(): boolean;
  /** Each user's outcome (an Error when its commit failed; its lease then runs out), with the time it took. */
  settled(user: ClaimedUser, outcome: RefreshOutcome | Error, ms: number): void;
  /** The worker's pull slots, when batches share them; else the batch has MONITORING_CONCURRENCY of its own. */
  slots?: MonitoringSlots;
}

/**
 * A claimed batch, the scheduler's way: pulls MONITORING_CONCURRENCY at a time, consent re-read just before them, and
 * their commits in groups of MONITORING_COMMIT_GROUP. Triggers between periods and users the claim put aside take
 * the one-user path.
 */
export const refreshClaimedBatch = async (ctx: AppContext, users: ClaimedUser[], options: ClaimedBatchOptions) => {
  const now = ctx.clock.now();
  const periods = users.filter((user) => user.consented && user.status === 'active' && !isTriggerClaim(user, now));
  const others = users.filter((user) => !periods.includes(user));
  const gateOf = consentReadAhead(ctx, periods, ctx.config.MONITORING_CONCURRENCY);
  const started = new Map<string, number>();
  let group: PulledPeriod[] = [];
  const flush = async () => {
    const taken = group;
    group = [];
    if (taken.length === 0) return;
    const outcomes = await commitGroup(ctx, taken);
    taken.forEach((pulled, i) => {
      options.settled(pulled.user, outcomes[i] ?? 'skipped', performance.now() - (started.get(pulled.user.id) ?? 0));
    });
  };
  const slots = options.slots ?? new MonitoringSlots(ctx.config.MONITORING_CONCURRENCY);
  const refreshOne = async (user: ClaimedUser) => {
    const settle = (outcome: RefreshOutcome | Error) =>
      options.settled(user, outcome, started.has(user.id) ? performance.now() - (started.get(user.id) ?? 0) : 0);
    try {
      if (!options.mayStart()) return settle('skipped');
      started.set(user.id, performance.now());
      if (!periods.includes(user)) return settle(await refreshClaimedUser(ctx, user));
      // Consent is read with the next few users' just before their pulls start, so a withdrawal during the batch stops
      // the pull itself.
      const gate = await gateOf(user.id);
      const pull = await pullPeriod(ctx, user, ctx.clock.now(), gate);
      if ('outcome' in pull) return settle(pull.outcome);
      group.push(pull.pulled);
      if (group.length >= ctx.config.MONITORING_COMMIT_GROUP) await flush();
    } catch (error) {
      settle(error as Error);
    }
  };
  // Queued at once (before this function's first await): MonitoringSlots.claimThen relies on it.
  await Promise.all([...others, ...periods].map((user) => slots.run(() => refreshOne(user))));
  await flush();
};

/**
 * A pull for a bureau trigger, between periods: keyed by the trigger's instant (a repeated request after a crash is billed
 * once), committed through the one commit unit, which settles every trigger the file shows. It leaves the period alone.
 */
const refreshTriggeredFile = async (ctx: AppContext, user: ClaimedUser, now: Date): Promise<RefreshOutcome> => {
  if (!user.consented) return 'skipped';
  if (user.status !== 'active') {
    await unschedule(ctx.db, user.id);
    return 'skipped';
  }
  const pullId = `${user.id}:trigger:${new Date(user.trigger_due_at ?? now).toISOString()}`;
  let result: CreditFileResult;
  try {
    const gate = await findConsentGate(ctx.db, user.id);
    const call = { pullId, clientId: user.client_id, callClass: 'monitoring', monitor: true } as const;
    result = await bureauOf(ctx).pullCreditFile(await loadCreditSubject(ctx, { ...user, ...gate }), now, call);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'CONSENT_REQUIRED') {
      await retryTrigger(ctx.db, user.id, new Date(now.getTime() + CONSENT_RECHECK_MS));
      return 'skipped';
    }
    const reason = error instanceof BureauUnavailableError ? error.reason : (error as Error).name;
    // A refusal the bureau will repeat waits longest; the period after it still runs as usual.
    const retryAt = new Date(now.getTime() + retryDelay(ctx, isPermanentRefusal(error) ? Number.MAX_SAFE_INTEGER : 0));
    await retryTrigger(ctx.db, user.id, retryAt);
    ctx.logger.warn({ userId: user.id, retryAt, reason }, 'triggered pull failed; it will be retried');
    return 'failed';
  }
  return writeUser(ctx, async (tx, touches) => {
    const committed = await commitPulledFile(
      tx,
      ctx,
      user,
      { result, asOf: now, source: 'trigger', pullId },
      {
        committed: (batch, lastScoreDate) => finishTriggeredPull(batch, user.id, now, lastScoreDate),
        frozen: async (frozenTx) => {
          await markFrozen(frozenTx, user.id);
          await refreshTriggerDue(frozenTx, user.id, true);
        },
      },
    );
    if (committed.outcome === 'dropped') {
      if (committed.reason === 'no_consent') await retryTrigger(tx, user.id, new Date(now.getTime() + CONSENT_RECHECK_MS));
      else if (committed.reason === 'trigger_settled') await refreshTriggerDue(tx, user.id, true);
      else await unschedule(tx, user.id);
      return 'skipped';
    }
    touches(userTag(user.id));
    return committed.outcome === 'frozen' ? 'frozen' : 'refreshed';
  });
};

/**
 * Commits verification's pull as period 0 so the first period is never pulled twice; a user already past period 0 keeps
 * their schedule. Runs in the caller's transaction, which holds the user row and has just marked the user verified.
 */
export const applyVerificationPull = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  result: CreditFileResult,
  at: Date,
  pullId: string,
): Promise<void> => {
  // Verification's pull is period 0 when no period ran yet; otherwise it refreshes the file and leaves the schedule.
  const firstPeriod = (state: RefreshState) => state.monitoring_period === 0;
  const nextAfter = async () => ({
    nextPeriod: 1,
    dueAt: nextDueAfter(at, scheduleOf(ctx, await clientMonitoringCadence(tx, user.client_id), at)),
  });
  await commitPulledFile(
    tx,
    ctx,
    user,
    { result, asOf: at, source: 'verification', pullId },
    {
      committed: async (batch, lastScoreDate, state) => {
        if (!firstPeriod(state)) return markRefreshed(batch, user.id, at, lastScoreDate);
        await completePeriod(batch, user.id, { ...(await nextAfter()), refreshedAt: at, pausedReason: null, lastScoreDate });
      },
      frozen: async (frozenTx, state) => {
        if (!firstPeriod(state)) return markFrozen(frozenTx, user.id);
        await completePeriod(frozenTx, user.id, { ...(await nextAfter()), refreshedAt: null, pausedReason: 'credit_frozen' });
      },
    },
  );
};

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
 * At most one billed pull per user per day: the slot is taken before the pull so concurrent calls never pull twice, and
 * is given back if the pull fails or finds the file frozen (or freed by its lease if the process dies mid-pull).
 */
export const refreshNow = async (ctx: AppContext, caller: Caller, userId: string): Promise<TCreditScoreRefreshResult> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const bureau = bureauOf(ctx);
  const now = ctx.clock.now();
  const windowMs = MANUAL_REFRESH_INTERVAL_HOURS * HOUR_MS;
  // Through writeUser so the cached user row shows the slot; a pull unanswered past the lease is taken to have died.
  const claim = await writeUser(ctx, async (tx, touches) => {
    touches(userTag(user.id));
    return claimManualRefresh(tx, user.id, {
      now,
      cutoff: new Date(now.getTime() - windowMs),
      pendingUntil: new Date(now.getTime() + ctx.config.MONITORING_LEASE_SECONDS * 1000),
    });
  });
  if (!claim) {
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
    result = await bureau.pullCreditFile(await loadCreditSubject(ctx, user), now, {
      pullId,
      clientId: user.client_id,
      callClass: 'interactive',
      monitor: true,
      onBehalfOf: ctx.onBehalfOf,
    });
  } catch (error) {
    await giveBack();
    throw error;
  }
  const commitRefresh = writeUser(ctx, async (tx, touches) => {
    touches(userTag(user.id));
    const outcome = await commitPulledFile(
      tx,
      ctx,
      user,
      { result, asOf: now, source: 'refresh', pullId },
      {
        committed: (batch, lastScoreDate) => markRefreshed(batch, user.id, now, lastScoreDate),
        // A frozen file buys nothing the customer can see: the day's slot is given back.
        frozen: async (frozenTx) => {
          await releaseManualRefresh(frozenTx, user.id, now, claim.previous);
          await markFrozen(frozenTx, user.id);
        },
      },
    );
    if (outcome.outcome === 'dropped') {
      if (result.status === 'frozen') await releaseManualRefresh(tx, user.id, now, claim.previous);
      // A file dropped unused was still bought: the day's slot stays taken, and its lease ends.
      else await endManualRefreshLease(tx, user.id, now);
    }
    return outcome;
  });
  // A frozen file that could not be recorded still bought nothing: its slot is given back outside the failed transaction.
  const committed = await commitRefresh.catch(async (error: unknown) => {
    if (result.status === 'frozen') await giveBack();
    throw error;
  });
  if (committed.outcome === 'frozen') throw frozenError();
  if (committed.outcome === 'dropped') throw droppedError(committed.reason);
  const applied = committed.outcome === 'committed' ? committed.applied : undefined;
  // The file just committed (the user row read before the pull may still say frozen); a newer one if it won the race.
  const record = applied && result.status === 'ok' ? { file: result.file, asOf: now } : await loadFileOnRecord(ctx, user.id);
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
