import type { MonitoringCadence } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import type { IdentityRow, UserRow } from './repo.ts';

// Monitoring decides the schedule and refresh-now slot but writes them here: the users module is the only writer of `users`.

/** A user a worker holds for one period: the row, the sealed identity for the pull, and the schedule. */
export interface ClaimedUser extends UserRow, IdentityRow {
  monitoring_period: number;
  monitoring_anchor_at: Date;
  monitoring_attempts: number;
  consent_valid_until: Date | null;
  /** The earliest unsettled bureau trigger's instant: a claim before the period's due date is for it. */
  trigger_due_at: Date | null;
  /** The client's cadence (monthly or weekly), read with the claim so a period needs no second lookup. */
  monitoring_cadence: MonitoringCadence;
  /** A due user without consent is claimed only to be put aside: nothing is pulled and no attempt is counted. */
  consented: boolean;
}

const CLAIM_COLUMNS =
  'id, client_id, external_user_id, email, first_name, last_name, status, created_at, last_score_date::text, locked_until, ' +
  'monitoring_due_at, monitoring_last_at, monitoring_paused_reason, manual_refresh_at, manual_refresh_pending_until, ' +
  'ssn_enc, date_of_birth_enc, address_enc, monitoring_period, monitoring_anchor_at, monitoring_attempts, consent_valid_until, ' +
  'trigger_due_at, ' +
  '(select monitoring_cadence from clients where clients.id = users.client_id) as monitoring_cadence';

/**
 * SKIP LOCKED lets workers claim at once without taking each other's users; a worker that dies keeps its users only until
 * the lease ends. Users without consent at `now` are put aside until `consentRecheckAt` in the same statement.
 */
export const claimUsersDueForRefresh = async (
  db: Queryable,
  claim: { now: Date; leaseUntil: Date; consentRecheckAt: Date; limit: number },
): Promise<ClaimedUser[]> => {
  const { rows } = await db.query<ClaimedUser>(
    `with due as (
       select id as due_id, coalesce(consent_valid_until > $1, false) as consented from users
       -- A user on a sandbox test clock is refreshed by the clock's advances, at clock time (modules/clocks).
       where monitoring_next_attempt_at <= $1 and deleted_at is null and clock_id is null
       order by monitoring_next_attempt_at
       limit $3
       for update skip locked)
     update users set monitoring_next_attempt_at = case when due.consented then $2::timestamptz else $4::timestamptz end
     from due where users.id = due.due_id
     returning ${CLAIM_COLUMNS}, due.consented`,
    [claim.now, claim.leaseUntil, claim.limit, claim.consentRecheckAt],
  );
  return rows;
};

/**
 * One period or trigger per user per call (whichever comes first), so each user's pulls run in order; the advance's lease
 * on the clock is their claim. A user whose consent ended by a pull's run time is left out, so the advance skips the rest.
 */
export const dueOnClock = async (
  db: Queryable,
  clockId: string,
  from: Date,
  until: Date,
  limit: number,
): Promise<ClaimedUser[]> => {
  const { rows } = await db.query<ClaimedUser>(
    `select ${CLAIM_COLUMNS}, true as consented from users
     where clock_id = $1 and deleted_at is null and monitoring_next_attempt_at is not null
       and least(monitoring_due_at, trigger_due_at) <= $2
       and consent_valid_until > greatest(least(monitoring_due_at, trigger_due_at), $4::timestamptz)
     order by id limit $3`,
    [clockId, until, limit, from],
  );
  return rows;
};

/**
 * A plain write, so it can join a StatementBatch with the pull's snapshot as one statement. The next attempt is the next
 * period or an earlier pending trigger (refreshTriggerDue has settled what this pull covered, in the same transaction).
 */
export const completePeriod = async (
  tx: Queryable,
  userId: string,
  update: {
    nextPeriod: number;
    dueAt: Date;
    refreshedAt: Date | null;
    pausedReason: 'credit_frozen' | null;
    /** The newest score's date when the pull stored scores (RecordedScore.lastScoreDate): the same row version. */
    lastScoreDate?: string | null;
  },
): Promise<void> => {
  await tx.query(
    `update users set monitoring_period = $2, monitoring_due_at = $3, monitoring_next_attempt_at = least($3, trigger_due_at),
       monitoring_attempts = 0, monitoring_last_at = coalesce($4, monitoring_last_at), monitoring_paused_reason = $5,
       last_score_date = coalesce($6::date, last_score_date)
     where id = $1`,
    [userId, update.nextPeriod, update.dueAt, update.refreshedAt, update.pausedReason, update.lastScoreDate ?? null],
  );
};

/** A failed pull: the same period is tried again at `retryAt` (only if no one completed it meanwhile). */
export const recordFailedAttempt = async (tx: Queryable, userId: string, period: number, retryAt: Date): Promise<void> => {
  await tx.query(
    `update users set monitoring_attempts = monitoring_attempts + 1, monitoring_next_attempt_at = $3
     where id = $1 and monitoring_period = $2 and deleted_at is null`,
    [userId, period, retryAt],
  );
};

/** A pull refused for want of consent: the period waits, with no attempt counted, until `recheckAt`. */
export const deferForConsent = async (db: Queryable, userId: string, period: number, recheckAt: Date): Promise<void> => {
  await db.query(
    `update users set monitoring_next_attempt_at = $3
     where id = $1 and monitoring_period = $2 and deleted_at is null and monitoring_next_attempt_at is not null`,
    [userId, period, recheckAt],
  );
};

/** A period given up (the bureau refused it through the whole retry schedule): the next one is due at `dueAt`. */
export const skipPeriod = async (
  db: Queryable,
  userId: string,
  period: number,
  update: { nextPeriod: number; dueAt: Date },
): Promise<void> => {
  await db.query(
    `update users set monitoring_period = $3, monitoring_due_at = $4, monitoring_next_attempt_at = least($4, trigger_due_at),
       monitoring_attempts = 0
     where id = $1 and monitoring_period = $2 and deleted_at is null`,
    [userId, period, update.nextPeriod, update.dueAt],
  );
};

/** Takes a user off the schedule (deleted, or no longer verified): nothing is pulled until verification schedules it. */
export const unschedule = async (tx: Queryable, userId: string): Promise<void> => {
  await tx.query('update users set monitoring_next_attempt_at = null, trigger_due_at = null where id = $1', [userId]);
};

/**
 * Triggers just received for monitored users: each user's trigger instant becomes the earliest unsettled one, and the
 * next attempt moves up to it, unless a claim holds the user (its lease, a retry wait or a trigger already due): that
 * claim's pull settles what it covers, and refreshTriggerDue then schedules the rest.
 */
export const scheduleTriggers = async (tx: Queryable, triggers: { userId: string; at: Date }[], now: Date): Promise<void> => {
  if (triggers.length === 0) return;
  await tx.query(
    `with locked as (select id from users where id = any($1::text[]) order by id for no key update)
     update users u set trigger_due_at = least(u.trigger_due_at, t.at),
       monitoring_next_attempt_at = case
         when u.trigger_due_at is not null and u.trigger_due_at <= $3 then u.monitoring_next_attempt_at
         when u.monitoring_next_attempt_at <= u.monitoring_due_at then least(u.monitoring_next_attempt_at, t.at)
         else u.monitoring_next_attempt_at end
     from (select user_id, min(at) as at from unnest($1::text[], $2::timestamptz[]) as x(user_id, at) group by user_id) t
     where u.id = t.user_id and u.id in (select id from locked) and u.deleted_at is null
       and u.monitoring_next_attempt_at is not null`,
    [triggers.map((t) => t.userId), triggers.map((t) => t.at), now],
  );
};

/**
 * After a pull settled triggers: the user's trigger instant becomes the earliest still unsettled. With `reschedule`, an
 * idle user's next attempt follows it (a held claim keeps its own); a period's commit sets the next attempt itself.
 */
export const refreshTriggerDue = async (tx: Queryable, userId: string, reschedule: boolean): Promise<void> => {
  await tx.query(
    `update users u set trigger_due_at = t.due,
       monitoring_next_attempt_at = case when $2 and u.monitoring_next_attempt_at <= u.monitoring_due_at
         then least(u.monitoring_due_at, t.due) else u.monitoring_next_attempt_at end
     from (select min(effective_at) as due from bureau_triggers where user_id = $1 and settled_at is null) t
     where u.id = $1`,
    [userId, reschedule],
  );
};

/** A triggered pull committed: the file is current as of `at`, and the next attempt is the period or the next trigger. */
export const finishTriggeredPull = async (
  tx: Queryable,
  userId: string,
  at: Date,
  lastScoreDate: string | null = null,
): Promise<void> => {
  await tx.query(
    // An unscheduled user's monitoring columns stay as they are; the scores' date is written either way.
    `update users set
       monitoring_last_at = case when monitoring_next_attempt_at is null then monitoring_last_at
         else greatest(monitoring_last_at, $2) end,
       monitoring_paused_reason = case when monitoring_next_attempt_at is null then monitoring_paused_reason else null end,
       monitoring_next_attempt_at = case when monitoring_next_attempt_at is null then null
         else least(monitoring_due_at, trigger_due_at) end,
       last_score_date = coalesce($3::date, last_score_date)
     where id = $1 and (monitoring_next_attempt_at is not null or $3::date is not null)`,
    [userId, at, lastScoreDate],
  );
};

/** A triggered pull that failed or found no consent: tried again at `retryAt`, or with the period if that comes first. */
export const retryTrigger = async (db: Queryable, userId: string, retryAt: Date): Promise<void> => {
  await db.query(
    `update users set monitoring_next_attempt_at =
       case when trigger_due_at is null then monitoring_due_at else least(monitoring_due_at, $2) end
     where id = $1 and deleted_at is null and monitoring_next_attempt_at is not null`,
    [userId, retryAt],
  );
};

/** The day's slot as a claim found it: given back as it was when the claim's pull fails. */
export interface ManualRefreshSlot {
  at: Date | null;
  pendingUntil: Date | null;
}

/** A taken slot: `takenOverFrom` is the claim time of a pull that died holding it (its lease passed). */
export type ManualRefreshClaim = { previous: ManualRefreshSlot; takenOverFrom: Date | null };

/**
 * Also takes a slot whose pull is past its lease, since its process died mid-pull and never gave it back. Answers the slot
 * as it was, to give back if the pull fails, or `false` when the slot is taken.
 */
export const claimManualRefresh = async (
  db: Queryable,
  userId: string,
  claim: { now: Date; cutoff: Date; pendingUntil: Date },
): Promise<ManualRefreshClaim | false> => {
  const { rows } = await db.query<{ at: Date | null; pending_until: Date | null; taken_over: boolean }>(
    `update users u set manual_refresh_at = $2, manual_refresh_pending_until = $4
     from (select id, manual_refresh_at as previous, manual_refresh_pending_until as pending
           from users where id = $1 for update) p
     where u.id = p.id and (p.previous is null or p.previous <= $3 or p.pending <= $2)
     returning p.previous as at, p.pending as pending_until, coalesce(p.pending <= $2, false) as taken_over`,
    [userId, claim.now, claim.cutoff, claim.pendingUntil],
  );
  const row = rows[0];
  if (!row) return false;
  return { previous: { at: row.at, pendingUntil: row.pending_until }, takenOverFrom: row.taken_over ? row.at : null };
};

/** Gives the slot back after a failed pull, unless another claim has taken it since (this one's lease passed). */
export const releaseManualRefresh = async (db: Queryable, userId: string, claimedAt: Date, previous: ManualRefreshSlot) => {
  await db.query(
    `update users set manual_refresh_at = $3, manual_refresh_pending_until = $4
     where id = $1 and manual_refresh_at = $2`,
    [userId, claimedAt, previous.at, previous.pendingUntil],
  );
};

/** The slot's time, and while a pull holds it, until when (its lease). */
export const manualRefreshSlot = async (db: Queryable, userId: string): Promise<ManualRefreshSlot> => {
  const { rows } = await db.query<{ at: Date | null; pending_until: Date | null }>(
    'select manual_refresh_at as at, manual_refresh_pending_until as pending_until from users where id = $1',
    [userId],
  );
  return { at: rows[0]?.at ?? null, pendingUntil: rows[0]?.pending_until ?? null };
};

/** Marks a frozen file seen by refresh now, so `monitoring.status` shows it at once. */
export const markFrozen = async (db: Queryable, userId: string): Promise<void> => {
  await db.query(`update users set monitoring_paused_reason = 'credit_frozen' where id = $1`, [userId]);
};

/** Ends the slot's lease unless another claim holds it by now; a plain write so it can join the snapshot's StatementBatch. */
export const markRefreshed = async (
  tx: Queryable,
  userId: string,
  at: Date,
  lastScoreDate: string | null = null,
): Promise<void> => {
  await tx.query(
    `update users set monitoring_last_at = $2, monitoring_paused_reason = null,
       manual_refresh_pending_until = case when manual_refresh_at = $2 then null else manual_refresh_pending_until end,
       last_score_date = coalesce($3::date, last_score_date)
     where id = $1 and (monitoring_next_attempt_at is not null or $3::date is not null)`,
    [userId, at, lastScoreDate],
  );
};

/** A refresh now whose file was dropped unused: its slot stays taken (the file was bought) and its lease ends. */
export const endManualRefreshLease = async (tx: Queryable, userId: string, at: Date): Promise<void> => {
  await tx.query('update users set manual_refresh_pending_until = null where id = $1 and manual_refresh_at = $2', [userId, at]);
};
