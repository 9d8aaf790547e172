import type { TListConsentHistoryQuery, TPagination } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { Filters, keysetPage } from '../../db/keyset.ts';
import type { ConsentColumns } from './consent-gate.ts';

/** Selects ConsentColumns from `users` (the ended reason is read only when the gate is closed). */
export const CONSENT_COLUMNS =
  'consent_valid_until, case when consent_valid_until is null then coalesce((select ' +
  `case when c.withdrawn_at is not null then 'withdrawn' else 'required' end from consents c ` +
  `where c.user_id = users.id order by c.seq desc limit 1), 'required') end as consent_ended`;

/** A row of `consents` (migration 008): one consumer instruction, with how it ended. */
export interface ConsentRow {
  id: string;
  client_id: string;
  user_id: string;
  terms_version: string;
  method: 'widget' | 'partner_attested' | 'sandbox_default';
  purpose: 'credit_monitoring';
  recipients: string[];
  ip_address_enc: string | null;
  user_agent_enc: string | null;
  accepted_at: Date;
  recorded_at: Date;
  expires_at: Date;
  withdrawn_at: Date | null;
  superseded_at: Date | null;
  /** The order of recording (migration 014): bigint, a string from node-postgres, a number from PGlite. */
  seq: string | number;
}

export interface NewConsent {
  id: string;
  clientId: string;
  userId: string;
  termsVersion: string;
  method: ConsentRow['method'];
  recipients: string[];
  ipAddressEnc: string | null;
  userAgentEnc: string | null;
  acceptedAt: Date;
  recordedAt: Date;
  expiresAt: Date;
}

/**
 * Records a consent as the user's current one, in the caller's transaction: the one it replaces is marked superseded,
 * and the user's gate column takes the new expiry. An enrolment inserts the user with that column already set and
 * has nothing to supersede (`newUser`), so it skips both.
 */
export const insertCurrentConsent = async (tx: Queryable, c: NewConsent, newUser = false): Promise<void> => {
  if (!newUser) {
    await tx.query(
      `update consents set superseded_at = $2
       where user_id = $1 and withdrawn_at is null and superseded_at is null`,
      [c.userId, c.recordedAt],
    );
  }
  await tx.query(
    `insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, ip_address_enc,
       user_agent_enc, accepted_at, recorded_at, expires_at)
     values ($1, $2, $3, $4, $5, 'credit_monitoring', $6, $7, $8, $9, $10, $11)`,
    [
      c.id,
      c.clientId,
      c.userId,
      c.termsVersion,
      c.method,
      c.recipients,
      c.ipAddressEnc,
      c.userAgentEnc,
      c.acceptedAt,
      c.recordedAt,
      c.expiresAt,
    ],
  );
  if (!newUser) await tx.query('update users set consent_valid_until = $2 where id = $1', [c.userId, c.expiresAt]);
};

/**
 * A user's most recent consents, at most `limit`, most recent first: in the order they were recorded (`seq`), not by
 * `recorded_at`, which a sandbox test clock can hold still or set back. The open one (neither withdrawn nor
 * superseded, at most one) is always the last recorded, as every grant supersedes the one before: so it is first here.
 */
export const listConsents = async (db: Queryable, userId: string, limit: number): Promise<ConsentRow[]> => {
  const { rows } = await db.query<ConsentRow>('select * from consents where user_id = $1 order by seq desc limit $2', [
    userId,
    limit,
  ]);
  return rows;
};

// `recordedAt` sorts by the order of recording (`seq`, migration 014): the same as by time, except where a sandbox
// test clock held time still (a tie) or was deleted (back to real time).
const HISTORY_SORT_COLUMNS = { recordedAt: { column: 'seq', type: 'text' as const } };

/** Every consent of a user, a page at a time (GET …/consent/history), through the `consents_user_seq` index. */
export const listConsentPage = (
  db: Queryable,
  userId: string,
  query: TListConsentHistoryQuery,
  cursors: CursorCodec,
): Promise<{ items: ConsentRow[]; pagination: TPagination }> =>
  keysetPage<ConsentRow>(db, {
    cursors,
    list: `consents:${userId}`,
    table: 'consents',
    columns: '*',
    filters: new Filters().add((p) => `user_id = ${p}`, userId),
    sortColumns: HISTORY_SORT_COLUMNS,
    query,
    cursorValue: (row, field) => (field === 'recordedAt' ? String(row.seq) : row.id),
  });

/**
 * Withdraws the user's current consent (open and not expired) and closes the gate; the caller holds the user's row
 * lock (lockUserForConsent), so a grant racing it is ordered. Answers the withdrawn record, or undefined when there was
 * none (never given, already withdrawn, or expired: the gate stays as it is and says so).
 */
export const withdrawOpenConsent = async (tx: Queryable, userId: string, at: Date): Promise<ConsentRow | undefined> => {
  const { rows } = await tx.query<ConsentRow>(
    `update consents set withdrawn_at = $2
     where user_id = $1 and withdrawn_at is null and superseded_at is null and expires_at > $2
     returning *`,
    [userId, at],
  );
  if (rows[0]) await tx.query('update users set consent_valid_until = null where id = $1', [userId]);
  return rows[0];
};

/** Locks the user's row, so grants and withdrawals of one user apply one after the other. */
export const lockUserForConsent = async (tx: Queryable, userId: string): Promise<boolean> => {
  const { rows } = await tx.query('select id from users where id = $1 and deleted_at is null for update', [userId]);
  return rows.length > 0;
};

/**
 * Terms published with CONSENT_TERMS_REQUIRE_RECONSENT: every open consent under another version stops counting
 * (superseded; the gate closes), so monitoring pauses until the consumer accepts the new text. Idempotent: once done,
 * nothing matches. Answers how many users it closed.
 */
export const supersedeOtherTermsVersions = async (tx: Queryable, currentVersion: string, at: Date): Promise<number> => {
  // `< or >` rather than `<>`: two ranges of the open-consents index (migration 008) instead of a table scan.
  const { rows } = await tx.query<{ user_id: string }>(
    `update consents set superseded_at = $2
     where (terms_version < $1 or terms_version > $1) and withdrawn_at is null and superseded_at is null
     returning user_id`,
    [currentVersion, at],
  );
  if (rows.length === 0) return 0;
  const userIds = [...new Set(rows.map((r) => r.user_id))];
  await tx.query('update users set consent_valid_until = null where id = any($1::text[])', [userIds]);
  return userIds.length;
};

/** The gate columns of one user, for a caller whose row was loaded without them. */
/** The gates of several users in one read; a user not found has none. */
export const findConsentGates = async (db: Queryable, userIds: string[]): Promise<Map<string, ConsentColumns>> => {
  if (userIds.length === 0) return new Map();
  const { rows } = await db.query<ConsentColumns & { id: string }>(
    `select id, ${CONSENT_COLUMNS} from users where id = any($1::text[])`,
    [userIds],
  );
  return new Map(rows.map(({ id, ...gate }) => [id, gate]));
};

export const findConsentGate = async (db: Queryable, userId: string): Promise<ConsentColumns> => {
  const { rows } = await db.query<ConsentColumns>(`select ${CONSENT_COLUMNS} from users where id = $1`, [userId]);
  return rows[0] ?? { consent_valid_until: null, consent_ended: 'required' };
};
