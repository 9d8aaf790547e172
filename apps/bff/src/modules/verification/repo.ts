import { MAX_FAILED_SESSIONS } from '@credit/contract';
import type { Queryable } from '../../db/db.ts';
import { LOCK_WINDOW_MS } from './lock.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  client_id: string;
  identity_hash: string;
  answer_key_enc: string;
  created_at: Date;
  expires_at: Date;
  answered_at: Date | null;
  passed: boolean | null;
}

const COLUMNS = 'id, user_id, client_id, identity_hash, answer_key_enc, created_at, expires_at, answered_at, passed';

export interface NewSession {
  id: string;
  userId: string;
  clientId: string;
  identityHash: string;
  answerKeyEnc: string;
  createdAt: Date;
  expiresAt: Date;
}

export const insertSession = async (db: Queryable, s: NewSession): Promise<void> => {
  await db.query(
    `insert into verification_sessions (id, user_id, client_id, identity_hash, answer_key_enc, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [s.id, s.userId, s.clientId, s.identityHash, s.answerKeyEnc, s.createdAt, s.expiresAt],
  );
};

/** The user's sessions at this client started after `since`, oldest first (one read for the open one and the count). */
export const sessionsStartedSince = async (db: Queryable, clientId: string, userId: string, since: Date) => {
  const { rows } = await db.query<SessionRow>(
    `select ${COLUMNS} from verification_sessions where user_id = $1 and client_id = $2 and created_at > $3
     order by created_at, id`,
    [userId, clientId, since],
  );
  return rows;
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

/**
 * Failed sessions answered after `since` at one client, of one user or of one identity (`identityHashes`: its
 * digests under every key), whichever has more: the person may have failed under the client's other user ids.
 */
export const countFailuresSince = async (
  tx: Queryable,
  clientId: string,
  userId: string,
  identityHashes: string[],
  since: Date,
) => {
  const { rows } = await tx.query<{ by_user: number | string; by_identity: number | string }>(
    `select count(*) filter (where user_id = $1)::int as by_user,
            count(*) filter (where identity_hash = any($2::text[]))::int as by_identity
     from verification_sessions
     where client_id = $4 and (user_id = $1 or identity_hash = any($2::text[])) and passed = false and answered_at > $3`,
    [userId, identityHashes, since, clientId],
  );
  const row = rows[0];
  return Math.max(Number(row?.by_user ?? 0), Number(row?.by_identity ?? 0));
};

/**
 * When verification of this identity at this client opens again, or null when it is not locked at `now`: the
 * latest failure that was the third (or later) within 24 h locks it until 24 h after that failure.
 * Derived from the sessions themselves, so concurrent failures under different user ids cannot
 * slip past the lock. Per client: another tenant's failures for the same person neither lock nor tell anything.
 */
export const identityLockEnd = async (
  db: Queryable,
  clientId: string,
  identityHashes: string[],
  now: Date,
): Promise<Date | null> => {
  const { rows } = await db.query<{ locked_from: Date | null }>(
    `select max(f.answered_at) as locked_from from verification_sessions f
     where f.client_id = $5 and f.identity_hash = any($1::text[]) and f.passed = false and f.answered_at > $2
       and (select count(*) from verification_sessions g
            where g.client_id = $5 and g.identity_hash = any($1::text[]) and g.passed = false
              and g.answered_at > f.answered_at - $3 * interval '1 millisecond' and g.answered_at <= f.answered_at) >= $4`,
    [identityHashes, new Date(now.getTime() - LOCK_WINDOW_MS), LOCK_WINDOW_MS, MAX_FAILED_SESSIONS, clientId],
  );
  const from = rows[0]?.locked_from;
  return from ? new Date(new Date(from).getTime() + LOCK_WINDOW_MS) : null;
};

// The user's verification state (status, verified_at, locked_until) is decided here and written by the users module
// (markVerified, recordFailureOutcome, clearExpiredLock in users/service.ts).

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
