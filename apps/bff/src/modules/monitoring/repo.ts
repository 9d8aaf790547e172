import type { Queryable } from '../../db/db.ts';
import type { IdentityRow, UserRow } from '../users/service.ts';

/** A user a worker holds for one period: the row, the sealed identity for the pull, and the schedule. */
export interface ClaimedUser extends UserRow, IdentityRow {
  monitoring_period: number;
  monitoring_anchor_at: Date;
  monitoring_attempts: number;
  consent_valid_until: Date | null;
  /**
   * Whether the user had current consent when claimed. A due user without it is claimed only to be put aside (its next
   * look is CONSENT_RECHECK_MS later, set by the claim itself): nothing is pulled and no attempt is counted.
   */
  consented: boolean;
}

/**
 * How long a due user without current consent is put aside before the claim looks at it again. Without this, users whose
 * consent expired would stay at the head of the due index and every claim would read past all of them; with it each is
 * read once a day. A user who gives consent again is refreshed at the next look (refresh now pulls at once).
 */
export const CONSENT_RECHECK_MS = 24 * 3_600_000;

const CLAIM_COLUMNS =
  'id, client_id, external_user_id, email, first_name, last_name, status, created_at, last_score_date::text, locked_until, ' +
  'monitoring_due_at, monitoring_last_at, monitoring_paused_reason, manual_refresh_at, manual_refresh_pending_until, ' +
  'ssn_enc, date_of_birth_enc, address_enc, monitoring_period, monitoring_anchor_at, monitoring_attempts, consent_valid_until';

/**
 * Claims up to `limit` users whose refresh is due, oldest first, by pushing their next attempt to `leaseUntil`.
 * SKIP LOCKED lets any number of workers claim at once without waiting on or taking each other's users; a worker that
 * dies keeps its users only until the lease ends. Users without current consent at `now` (consent_valid_until, migration
 * 008) are skipped: the same statement puts them aside for CONSENT_RECHECK_MS and answers them with `consented: false`.
 */
export const claimDueUsers = async (db: Queryable, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedUser[]> => {
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
    [now, leaseUntil, limit, new Date(now.getTime() + CONSENT_RECHECK_MS)],
  );
  return rows;
};

/**
 * The users of a sandbox test clock whose current period is due by `until` (the clock's target), for its advance: one
 * period each per call, so each user's periods run in order. The advance's lease on the clock is their claim. A period
 * runs at its due time, or at `from` (the clock's time when the advance began) if it was overdue then: a user whose
 * consent has ended by that time is left out, so the advance skips the rest of their periods.
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
     where clock_id = $1 and deleted_at is null and monitoring_next_attempt_at is not null and monitoring_due_at <= $2
       and consent_valid_until > greatest(monitoring_due_at, $4::timestamptz)
     order by id limit $3`,
    [clockId, until, limit, from],
  );
  return rows;
};

export interface SealedSnapshot {
  sealed: string;
  asOf: Date;
}

export interface RefreshState {
  status: UserRow['status'];
  deleted: boolean;
  monitoring_period: number;
  /** The last pull's snapshot: what this pull is compared with (none before the first pull). */
  snapshot: SealedSnapshot | undefined;
  /** The newest point of the score history (null before the first pull seeded it). */
  latestScore: { score: number; scoreDate: string } | null;
  /**
   * The consent gate as it stands under the lock (migration 008; null: withdrawn, superseded or never given). A pull
   * commits only if consent is still current at its time: a withdrawal that lands between the claim and the commit
   * takes this lock too, so it is either seen here or made after the commit.
   */
  consentValidUntil: Date | null;
}

/**
 * Locks the user for the rest of the transaction and reads, in the same round trip, everything a pull's commit decides
 * on: whether it may still commit (status, deletion, period, consent), the previous snapshot and the newest history
 * point. Every commit waits for its WAL flush: its outbox rows and NOTIFY become visible only once durable, so a
 * webhook never announces a commit that a crash could still erase.
 */
export const lockRefreshState = async (tx: Queryable, userId: string): Promise<RefreshState | undefined> => {
  const { rows } = await tx.query<{
    status: UserRow['status'];
    deleted_at: Date | null;
    monitoring_period: number;
    snapshot_enc: string | null;
    snapshot_as_of: Date | null;
    latest_score: number | null;
    latest_score_date: string | null;
    consent_valid_until: Date | null;
  }>(
    `select u.status, u.deleted_at, u.monitoring_period, u.consent_valid_until, s.snapshot_enc, s.as_of as snapshot_as_of,
       l.score as latest_score, l.score_date::text as latest_score_date
     from users u
     left join credit_snapshots s on s.user_id = u.id
     left join lateral (select score, score_date from score_history h where h.user_id = u.id order by seq desc limit 1) l
       on true
     where u.id = $1 for no key update of u`,
    [userId],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    status: row.status,
    deleted: row.deleted_at !== null,
    monitoring_period: row.monitoring_period,
    snapshot:
      row.snapshot_enc !== null && row.snapshot_as_of !== null
        ? { sealed: row.snapshot_enc, asOf: new Date(row.snapshot_as_of) }
        : undefined,
    latestScore:
      row.latest_score !== null && row.latest_score_date !== null
        ? { score: Number(row.latest_score), scoreDate: row.latest_score_date }
        : null,
    consentValidUntil: row.consent_valid_until === null ? null : new Date(row.consent_valid_until),
  };
};

/** The snapshot a pull leaves for the next comparison, written by the statement that finishes the pull. */
export interface SnapshotToSave {
  clientId: string;
  sealed: string;
  /** The whole file, sealed: the file on record that reads serve. */
  fileSealed: string;
  asOf: Date;
  takenAt: Date;
}

/** Upserts the snapshot (when there is one) in a CTE of the statement that follows, so both cost one round trip. */
const SAVE_SNAPSHOT_CTE = (first: number) => `with saved as (
       insert into credit_snapshots (user_id, client_id, snapshot_enc, as_of, taken_at, file_enc)
       select $1, $${first}::text, $${first + 1}::text, $${first + 2}::timestamptz, $${first + 3}::timestamptz,
         $${first + 4}::text
       where $${first + 1}::text is not null
       on conflict (user_id) do update
         set snapshot_enc = excluded.snapshot_enc, as_of = excluded.as_of, taken_at = excluded.taken_at,
           file_enc = excluded.file_enc
       returning 1)
     `;
const snapshotParams = (snapshot: SnapshotToSave | undefined) => [
  snapshot?.clientId ?? null,
  snapshot?.sealed ?? null,
  snapshot?.asOf ?? null,
  snapshot?.takenAt ?? null,
  snapshot?.fileSealed ?? null,
];

/**
 * Moves the user to `nextPeriod`, due at `dueAt`; `pausedReason` says whether the file was frozen at this pull. The
 * pull's snapshot, when there is one, is saved by the same statement.
 */
export const completePeriod = async (
  tx: Queryable,
  userId: string,
  update: { nextPeriod: number; dueAt: Date; refreshedAt: Date | null; pausedReason: 'credit_frozen' | null },
  snapshot?: SnapshotToSave,
): Promise<void> => {
  await tx.query(
    `${SAVE_SNAPSHOT_CTE(6)}update users set monitoring_period = $2, monitoring_due_at = $3, monitoring_next_attempt_at = $3,
       monitoring_attempts = 0, monitoring_last_at = coalesce($4, monitoring_last_at), monitoring_paused_reason = $5
     where id = $1`,
    [userId, update.nextPeriod, update.dueAt, update.refreshedAt, update.pausedReason, ...snapshotParams(snapshot)],
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
    `update users set monitoring_period = $3, monitoring_due_at = $4, monitoring_next_attempt_at = $4, monitoring_attempts = 0
     where id = $1 and monitoring_period = $2 and deleted_at is null`,
    [userId, period, update.nextPeriod, update.dueAt],
  );
};

/** Takes a user off the schedule (deleted, or no longer verified): nothing is pulled until verification schedules it. */
export const unschedule = async (tx: Queryable, userId: string): Promise<void> => {
  await tx.query('update users set monitoring_next_attempt_at = null where id = $1', [userId]);
};

/**
 * Records that an alert about a subject was raised; false when one already was (the same inquiry never alerts twice).
 * Subjects are stored as keyed digests (`digests[0]` is the current key's): they name lenders, ZIP codes and flags, which
 * stay sealed in the snapshot. The older keys' digests are checked too, so rotating the key never re-raises an alert.
 */
export const claimAlertKey = async (tx: Queryable, userId: string, digests: string[], at: Date): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `insert into monitoring_alert_keys (user_id, key, created_at)
     select $1, $2, $3
     where not exists (select 1 from monitoring_alert_keys where user_id = $1 and key = any($4::text[]))
     on conflict do nothing`,
    [userId, digests[0], at, digests],
  );
  return rowCount === 1;
};

/** The day's slot as a claim found it: given back as it was when the claim's pull fails. */
export interface ManualRefreshSlot {
  at: Date | null;
  pendingUntil: Date | null;
}

/** A taken slot: `takenOverFrom` is the claim time of a pull that died holding it (its lease passed). */
export type ManualRefreshClaim = { previous: ManualRefreshSlot; takenOverFrom: Date | null };

/**
 * Takes the user's one refresh-now of the day: succeeds when the last was at or before `cutoff`, or when the pull that
 * took the slot is past its lease (`pendingUntil` of that claim: its process stopped mid-pull and never gave the slot
 * back). Holds the slot with this claim's own lease until the pull's outcome is recorded. Answers the slot as it was
 * (to give back if the pull fails), or `false` when the slot is taken.
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

/**
 * Gives the slot back as the claim found it after a failed pull, unless another claim has taken it since (this one's
 * lease passed). A dead pull's slot goes back with its passed lease: still free, and still that pull's should it answer.
 */
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

/**
 * A refresh now's pull: the user was refreshed at `at` (the time its claim took the day's slot), and its snapshot (if
 * any) saved by the same statement. The slot stays taken and its lease ends, unless another claim holds it by now.
 */
export const markRefreshed = async (tx: Queryable, userId: string, at: Date, snapshot?: SnapshotToSave): Promise<void> => {
  await tx.query(
    `${SAVE_SNAPSHOT_CTE(3)}update users set monitoring_last_at = $2, monitoring_paused_reason = null,
       manual_refresh_pending_until = case when manual_refresh_at = $2 then null else manual_refresh_pending_until end
     where id = $1`,
    [userId, at, ...snapshotParams(snapshot)],
  );
};

/** A refresh now whose file was dropped unused: its slot stays taken (the file was bought) and its lease ends. */
export const endManualRefreshLease = async (tx: Queryable, userId: string, at: Date): Promise<void> => {
  await tx.query('update users set manual_refresh_pending_until = null where id = $1 and manual_refresh_at = $2', [userId, at]);
};
