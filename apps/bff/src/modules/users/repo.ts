import type { TListUsersQuery, TPagination, TUser } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { Filters, keysetPage, type SortableColumn } from '../../db/keyset.ts';
import type { ConsentColumns } from './consent-gate.ts';
import { CONSENT_COLUMNS } from './consent-repo.ts';
import { monitoringOf } from './monitoring-status.ts';

export interface UserRow extends ConsentColumns {
  id: string;
  client_id: string;
  external_user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  status: TUser['status'];
  created_at: Date;
  last_score_date: string | null;
  locked_until: Date | null;
  monitoring_due_at: Date | null;
  monitoring_last_at: Date | null;
  monitoring_paused_reason: 'credit_frozen' | null;
  manual_refresh_at: Date | null;
  manual_refresh_pending_until: Date | null;
  /** Sandbox: the frozen time of the test clock the user is on (their "now"), and whether it is advancing. */
  clock_time?: Date | null;
  clock_advancing?: boolean | null;
}

const COLUMNS =
  'id, client_id, external_user_id, email, first_name, last_name, status, created_at, last_score_date::text, locked_until, ' +
  'monitoring_due_at, monitoring_last_at, monitoring_paused_reason, manual_refresh_at, manual_refresh_pending_until, ' +
  '(select frozen_time from sandbox_clocks k where k.id = users.clock_id) as clock_time, ' +
  `(select status = 'advancing' from sandbox_clocks k where k.id = users.clock_id) as clock_advancing, ${CONSENT_COLUMNS}`;

/** A verification lock ends by itself 24 h after the last failure; reads see that without a write. */
export const effectiveStatus = (row: UserRow, now: Date): TUser['status'] =>
  row.status === 'locked' && row.locked_until && new Date(row.locked_until).getTime() <= now.getTime()
    ? 'pending_verification'
    : row.status;

/** `now` is real time; a user on a sandbox test clock is shown at the clock's time. */
export const toUser = (row: UserRow, realNow: Date): TUser => {
  const now = row.clock_time ? new Date(row.clock_time) : realNow;
  return {
    userId: row.id,
    externalUserId: row.external_user_id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    status: effectiveStatus(row, now),
    enrolledAt: new Date(row.created_at).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
    lastScoreDate: row.last_score_date,
    monitoring: monitoringOf(row, effectiveStatus(row, now), now),
  };
};

/** The live users on a sandbox test clock. */
export const usersOnClock = async (db: Queryable, clockId: string): Promise<UserRow[]> =>
  (await db.query<UserRow>(`select ${COLUMNS} from users where clock_id = $1 and deleted_at is null order by id`, [clockId]))
    .rows;

export interface NewUser {
  id: string;
  clientId: string;
  externalUserId: string;
  email: string;
  firstName: string;
  lastName: string;
  status: TUser['status'];
  ssnEnc: string;
  dateOfBirthEnc: string;
  addressEnc: string;
  phoneEnc: string | null;
  createdAt: Date;
  /** The expiry of the consent recorded with the enrolment (the gate, migration 008). */
  consentValidUntil: Date;
  /** The language of the customer's alert e-mails (migration 025); `en` when the enrolment names none. */
  locale?: 'en' | 'es';
}

export const insertUser = async (tx: Queryable, u: NewUser): Promise<void> => {
  await tx.query(
    `insert into users (id, client_id, external_user_id, email, first_name, last_name, status,
       ssn_enc, date_of_birth_enc, address_enc, phone_enc, created_at, consent_valid_until, locale)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
    [
      u.id,
      u.clientId,
      u.externalUserId,
      u.email,
      u.firstName,
      u.lastName,
      u.status,
      u.ssnEnc,
      u.dateOfBirthEnc,
      u.addressEnc,
      u.phoneEnc,
      u.createdAt,
      u.consentValidUntil,
      u.locale ?? 'en',
    ],
  );
};

/** The customer's one-click unsubscribe from alert e-mails (modules/alert-emails); the first one is kept. */
export const markAlertEmailsUnsubscribed = async (db: Queryable, clientId: string, userId: string, at: Date): Promise<void> => {
  await db.query(
    'update users set alert_emails_unsubscribed_at = $3 where id = $1 and client_id = $2 and alert_emails_unsubscribed_at is null',
    [userId, clientId, at],
  );
};

/** The language the customer's widget shows, kept for their alert e-mails; written only when it changes. */
export const setUserLocale = async (db: Queryable, clientId: string, userId: string, locale: 'en' | 'es'): Promise<void> => {
  await db.query(
    'update users set locale = $3 where id = $1 and client_id = $2 and deleted_at is null and locale is distinct from $3',
    [userId, clientId, locale],
  );
};

export interface IdentityRow {
  ssn_enc: string;
  date_of_birth_enc: string;
  address_enc: string;
}

export const findIdentity = async (db: Queryable, userId: string): Promise<IdentityRow | undefined> => {
  const { rows } = await db.query<IdentityRow>(
    'select ssn_enc, date_of_birth_enc, address_enc from users where id = $1 and deleted_at is null',
    [userId],
  );
  return rows[0];
};

/** A live user of this client; with `externalUserId`, only if it is that user (user tokens). */
export const findLiveUser = async (
  db: Queryable,
  clientId: string,
  userId: string,
  externalUserId?: string,
): Promise<(UserRow & IdentityRow) | undefined> => {
  // The sealed identity comes along: credit routes need it next, and this saves them a round trip.
  const { rows } = await db.query<UserRow & IdentityRow>(
    `select ${COLUMNS}, ssn_enc, date_of_birth_enc, address_enc from users
     where id = $1 and client_id = $2 and deleted_at is null and ($3::text is null or external_user_id = $3)`,
    [userId, clientId, externalUserId ?? null],
  );
  return rows[0];
};

export const findLiveUserByExternalId = async (db: Queryable, clientId: string, externalUserId: string) => {
  const { rows } = await db.query<UserRow>(
    `select ${COLUMNS} from users where client_id = $1 and external_user_id = $2 and deleted_at is null`,
    [clientId, externalUserId],
  );
  return rows[0];
};

export const markUserDeleted = async (tx: Queryable, clientId: string, userId: string, at: Date) => {
  const { rows } = await tx.query<UserRow>(
    `update users set deleted_at = $3 where id = $1 and client_id = $2 and deleted_at is null returning ${COLUMNS}`,
    [userId, clientId, at],
  );
  return rows[0];
};

export const USER_SORT_COLUMNS: Record<string, SortableColumn> = {
  createdAt: { column: 'created_at', type: 'timestamp' },
  lastName: { column: 'last_name', type: 'text' },
  firstName: { column: 'first_name', type: 'text' },
  email: { column: 'email', type: 'text' },
  status: { column: 'status', type: 'text' },
};

export const listLiveUsers = (
  db: Queryable,
  clientId: string,
  query: TListUsersQuery,
  now: Date,
  cursors: CursorCodec,
): Promise<{ items: UserRow[]; pagination: TPagination }> => {
  const filters = new Filters().add((p) => `client_id = ${p}`, clientId).always('deleted_at is null');
  // Filter on the status reads show: a lock that has run out reads as pending_verification.
  if (query.status === 'locked') filters.add((p) => `status = 'locked' and locked_until > ${p}`, now);
  else if (query.status === 'pending_verification') {
    filters.add((p) => `(status = 'pending_verification' or (status = 'locked' and locked_until <= ${p}))`, now);
  } else if (query.status) filters.add((p) => `status = ${p}`, query.status);
  if (query.externalUserId) filters.add((p) => `external_user_id = ${p}`, query.externalUserId);
  filters.createdWindow(query);
  const cursorValue = (row: UserRow, field: string): string | null => {
    if (field === 'createdAt') return new Date(row.created_at).toISOString();
    const key = (USER_SORT_COLUMNS[field]?.column ?? field) as keyof UserRow;
    return row[key] === null ? null : String(row[key]);
  };
  return keysetPage(db, {
    cursors,
    list: `users:${clientId}`,
    table: 'users',
    columns: COLUMNS,
    filters,
    sortColumns: USER_SORT_COLUMNS,
    query,
    cursorValue,
  });
};

/**
 * Erases the personal data of users deleted before `cutoff`, and the e-mail their enrolment event
 * carried. The row keeps only its id, client and dates, so audits can still say it existed.
 */
export const purgeUsersDeletedBefore = async (tx: Queryable, cutoff: Date, at: Date): Promise<string[]> => {
  const { rows } = await tx.query<{ id: string }>(
    `update users set external_user_id = null, email = null, first_name = null, last_name = null, ssn_enc = null,
       date_of_birth_enc = null, address_enc = null, phone_enc = null, purged_at = $2
     where deleted_at is not null and deleted_at <= $1 and purged_at is null
     returning id`,
    [cutoff, at],
  );
  if (rows.length > 0) {
    // Where and in which browser they consented is personal data too; the consent records themselves stay as proof.
    await tx.query('update consents set ip_address_enc = null, user_agent_enc = null where user_id = any($1::text[])', [
      rows.map((r) => r.id),
    ]);
    await tx.query(
      `update outbox_events set data = data - 'email' - 'firstName' - 'lastName'
       where data->>'userId' = any($1::text[]) and data ? 'email'`,
      [rows.map((r) => r.id)],
    );
  }
  return rows.map((r) => r.id);
};

// Writes of the user row that other modules decide: verification's outcome, a stored score's date, a test clock.

export const markVerified = async (tx: Queryable, userId: string, at: Date): Promise<void> => {
  // The first verification starts monitoring: period 0 (the first pull) is due at once.
  await tx.query(
    `update users set status = 'active', verified_at = $2, locked_until = null,
       monitoring_anchor_at = coalesce(monitoring_anchor_at, $2),
       monitoring_due_at = case when monitoring_anchor_at is null then $2 else monitoring_due_at end,
       monitoring_next_attempt_at = case when monitoring_anchor_at is null then $2 else monitoring_next_attempt_at end
     where id = $1`,
    [userId, at],
  );
};

/**
 * Records a failure's effect on the user. A user who has never passed becomes `locked` until
 * `lockedUntil`; an `active` user (a failed step-up) keeps access to their data, only further
 * attempts are locked.
 */
export const recordFailureOutcome = async (tx: Queryable, userId: string, lockedUntil: Date | null): Promise<void> => {
  await tx.query(
    `update users set
       status = case when status = 'active' then 'active' when $2::timestamptz is null then 'pending_verification' else 'locked' end,
       locked_until = $2
     where id = $1`,
    [userId, lockedUntil],
  );
};

/** A lock that has run out: write down what reads already show (`pending_verification`). */
export const clearExpiredLock = async (db: Queryable, clientId: string, userId: string, now: Date): Promise<void> => {
  await db.query(
    `update users set status = case when status = 'locked' then 'pending_verification' else status end, locked_until = null
     where id = $1 and client_id = $2 and locked_until is not null and locked_until <= $3`,
    [userId, clientId, now],
  );
};

/** The date of the newest score stored for the user. A plain write: it joins credit's insert of the scores in a batch. */
export const setLastScoreDate = async (tx: Queryable, userId: string, scoreDate: string): Promise<void> => {
  await tx.query('update users set last_score_date = $2::date where id = $1', [userId, scoreDate]);
};

/** Puts the users on a sandbox test clock. */
export const attachUsersToClock = async (tx: Queryable, clockId: string, userIds: string[]): Promise<void> => {
  await tx.query('update users set clock_id = $1 where id = any($2::text[])', [clockId, userIds]);
};

/** Takes every user off a test clock that is being removed. */
export const detachClockUsers = async (tx: Queryable, clockId: string): Promise<void> => {
  await tx.query('update users set clock_id = null where clock_id = $1', [clockId]);
};
