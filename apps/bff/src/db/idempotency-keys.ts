import type { Queryable } from './db.ts';

/** A stored key: who claimed it with which request, and, once it completed, the answer to replay. */
export interface IdempotencyKeyRow {
  fingerprint: string;
  state: string;
  status_code: number | null;
  response_body: unknown;
  expires_at: Date;
}

/**
 * Claims `key` for a request (state `running`): a new key, one past `expiresAt`, or a `running` claim of the same
 * request locked before `staleBefore` (its process died). False when another claim holds it (a unique row, so
 * concurrent twins cannot both win).
 */
export const claimIdempotencyKey = async (
  db: Queryable,
  claim: { clientId: string; key: string; fingerprint: string; now: Date; expiresAt: Date; staleBefore: Date },
): Promise<boolean> => {
  const { rowCount } = await db.query(
    `insert into idempotency_keys (client_id, key, fingerprint, state, locked_at, expires_at)
     values ($1, $2, $3, 'running', $4, $5)
     on conflict (client_id, key) do update
       set fingerprint = excluded.fingerprint, state = 'running', status_code = null, response_body = null,
           locked_at = excluded.locked_at, expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= $4
          or (idempotency_keys.state = 'running' and idempotency_keys.locked_at <= $6
              and idempotency_keys.fingerprint = excluded.fingerprint)`,
    [claim.clientId, claim.key, claim.fingerprint, claim.now, claim.expiresAt, claim.staleBefore],
  );
  return rowCount === 1;
};

export const findIdempotencyKey = async (db: Queryable, clientId: string, key: string): Promise<IdempotencyKeyRow | undefined> =>
  (
    await db.query<IdempotencyKeyRow>(
      'select fingerprint, state, status_code, response_body, expires_at from idempotency_keys where client_id = $1 and key = $2',
      [clientId, key],
    )
  ).rows[0];

/** The claimed request completed: store its answer for replay. */
export const completeIdempotencyKey = async (
  db: Queryable,
  clientId: string,
  key: string,
  answer: { status: number; body?: unknown },
): Promise<void> => {
  await db.query(
    `update idempotency_keys set state = 'done', status_code = $3, response_body = $4::jsonb
     where client_id = $1 and key = $2`,
    [clientId, key, answer.status, JSON.stringify(answer.body ?? null)],
  );
};

/** Gives a claimed key back (the answer is not one to replay), so the next request with it runs. */
export const releaseIdempotencyKey = async (db: Queryable, clientId: string, key: string): Promise<void> => {
  await db.query('delete from idempotency_keys where client_id = $1 and key = $2', [clientId, key]);
};

/** Keys past their replay window are dead weight. */
export const deleteExpiredIdempotencyKeys = async (db: Queryable, now: Date): Promise<number> =>
  (await db.query('delete from idempotency_keys where expires_at <= $1', [now])).rowCount;
