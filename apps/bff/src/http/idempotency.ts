import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import type { PreparedResponse } from './error-response.ts';

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
// A "running" claim older than this belonged to a process that died; the next retry may take it over.
const STALE_CLAIM_MS = 60 * 1000;
export const MAX_KEY_LENGTH = 255;

/** Same method, path and body → same fingerprint; key order in the JSON body does not matter. */
export const fingerprintRequest = (method: string, path: string, body: unknown): string => {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash('sha256')
    .update(JSON.stringify([method, path, canonical(body ?? null)]))
    .digest('hex');
};

type Claim = { kind: 'claimed' } | { kind: 'replay'; response: PreparedResponse };

const conflict = (message: string) => new ApiError('IDEMPOTENCY_CONFLICT', message);

/**
 * Stripe's semantics: the first request with a key claims it (a unique row, so concurrent twins
 * cannot both win), runs, and stores its response; later ones replay it for 24 h.
 */
const claim = async (ctx: AppContext, clientId: string, key: string, fingerprint: string): Promise<Claim> => {
  const now = ctx.clock.now();
  const { rowCount } = await ctx.db.query(
    `insert into idempotency_keys (client_id, key, fingerprint, state, locked_at, expires_at)
     values ($1, $2, $3, 'running', $4, $5)
     on conflict (client_id, key) do update
       set fingerprint = excluded.fingerprint, state = 'running', status_code = null, response_body = null,
           locked_at = excluded.locked_at, expires_at = excluded.expires_at
       where idempotency_keys.expires_at <= $4
          or (idempotency_keys.state = 'running' and idempotency_keys.locked_at <= $6
              and idempotency_keys.fingerprint = excluded.fingerprint)`,
    [clientId, key, fingerprint, now, new Date(now.getTime() + REPLAY_WINDOW_MS), new Date(now.getTime() - STALE_CLAIM_MS)],
  );
  if (rowCount === 1) return { kind: 'claimed' };
  const { rows } = await ctx.db.query<{ fingerprint: string; state: string; status_code: number | null; response_body: unknown }>(
    'select fingerprint, state, status_code, response_body from idempotency_keys where client_id = $1 and key = $2',
    [clientId, key],
  );
  const row = rows[0];
  if (!row) return claim(ctx, clientId, key, fingerprint);
  if (row.fingerprint !== fingerprint) {
    throw conflict('This Idempotency-Key was already used with a different method, path or body.');
  }
  if (row.state === 'running' || row.status_code === null) {
    throw conflict('A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return {
    kind: 'replay',
    response: { status: row.status_code, body: row.response_body, headers: { 'Idempotent-Replayed': 'true' } },
  };
};

/**
 * A response worth replaying: success or a 4xx that settles the request. Not stored: validation errors (the request
 * never ran), 429s (they say "not yet": a client that waits `Retry-After` and retries with the same key must be
 * served, not refused again) and 5xx.
 */
const isStorable = (response: PreparedResponse) =>
  response.status < 500 &&
  response.status !== 429 &&
  (response.body as { error?: { code?: string } } | undefined)?.error?.code !== 'VALIDATION_ERROR';

export const withIdempotency = async (
  ctx: AppContext,
  clientId: string,
  key: string,
  fingerprint: string,
  run: () => Promise<PreparedResponse>,
): Promise<PreparedResponse> => {
  const claimed = await claim(ctx, clientId, key, fingerprint);
  if (claimed.kind === 'replay') return claimed.response;
  let response: PreparedResponse;
  try {
    response = await run();
  } catch (error) {
    await ctx.db.query('delete from idempotency_keys where client_id = $1 and key = $2', [clientId, key]);
    throw error;
  }
  if (isStorable(response)) {
    await ctx.db.query(
      `update idempotency_keys set state = 'done', status_code = $3, response_body = $4::jsonb
       where client_id = $1 and key = $2`,
      [clientId, key, response.status, JSON.stringify(response.body ?? null)],
    );
  } else {
    await ctx.db.query('delete from idempotency_keys where client_id = $1 and key = $2', [clientId, key]);
  }
  return response;
};

/** Keys past their replay window are dead weight. */
export const deleteExpiredIdempotencyKeys = async (ctx: AppContext): Promise<number> => {
  const { rowCount } = await ctx.db.query('delete from idempotency_keys where expires_at <= $1', [ctx.clock.now()]);
  return rowCount;
};
