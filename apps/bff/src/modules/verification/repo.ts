import type { Queryable } from '../../db/db.ts';
import type { PublicQuestion } from './questions/build-question-set.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  client_id: string;
  questions: PublicQuestion[];
  answer_key_enc: string;
  created_at: Date;
  expires_at: Date;
  answered_at: Date | null;
  passed: boolean | null;
}

const COLUMNS = 'id, user_id, client_id, questions, answer_key_enc, created_at, expires_at, answered_at, passed';

export interface NewSession {
  id: string;
  userId: string;
  clientId: string;
  questions: PublicQuestion[];
  answerKeyEnc: string;
  createdAt: Date;
  expiresAt: Date;
}

export const insertSession = async (db: Queryable, s: NewSession): Promise<void> => {
  await db.query(
    `insert into verification_sessions (id, user_id, client_id, questions, answer_key_enc, created_at, expires_at)
     values ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
    [s.id, s.userId, s.clientId, JSON.stringify(s.questions), s.answerKeyEnc, s.createdAt, s.expiresAt],
  );
};

/** A session of this user of this client; anyone else's looks absent. */
export const findSession = async (db: Queryable, clientId: string, userId: string, sessionId: string) => {
  const { rows } = await db.query<SessionRow>(
    `select ${COLUMNS} from verification_sessions where id = $1 and user_id = $2 and client_id = $3`,
    [sessionId, userId, clientId],
  );
  return rows[0];
};

/**
 * Marks a session answered, once: of two concurrent submissions only one gets the row back, so
 * only one can count. Expired sessions are not claimed either.
 */
export const claimSession = async (
  tx: Queryable,
  s: { clientId: string; userId: string; sessionId: string; passed: boolean; at: Date },
): Promise<boolean> => {
  const { rows } = await tx.query<{ id: string }>(
    `update verification_sessions set answered_at = $4, passed = $5
     where id = $1 and user_id = $2 and client_id = $3 and answered_at is null and expires_at >= $4
     returning id`,
    [s.sessionId, s.userId, s.clientId, s.at, s.passed],
  );
  return rows.length === 1;
};

/** Failed sessions of a user answered after `since`, and the latest of them. */
export const countFailuresSince = async (tx: Queryable, userId: string, since: Date) => {
  const { rows } = await tx.query<{ failures: number | string; last_failure: Date | null }>(
    `select count(*)::int as failures, max(answered_at) as last_failure from verification_sessions
     where user_id = $1 and passed = false and answered_at > $2`,
    [userId, since],
  );
  const row = rows[0];
  return {
    failures: Number(row?.failures ?? 0),
    lastFailure: row?.last_failure ? new Date(row.last_failure) : null,
  };
};

// The columns below belong to the user's verification state (status, verified_at, locked_until),
// which only this module changes.

export interface VerificationState {
  status: 'pending_verification' | 'active' | 'locked';
  external_user_id: string;
  locked_until: Date | null;
}

/** Locks the user row for the rest of the transaction, so verification outcomes of one user apply one at a time. */
export const lockVerificationState = async (tx: Queryable, clientId: string, userId: string) => {
  const { rows } = await tx.query<VerificationState>(
    `select status, external_user_id, locked_until from users
     where id = $1 and client_id = $2 and deleted_at is null for update`,
    [userId, clientId],
  );
  return rows[0];
};

export const markVerified = async (tx: Queryable, userId: string, at: Date): Promise<void> => {
  await tx.query(`update users set status = 'active', verified_at = $2, locked_until = null where id = $1`, [userId, at]);
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
