import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  releaseIdempotencyKey,
} from '../db/idempotency-keys.ts';
import type { PreparedResponse } from './error-response.ts';

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
// A "running" claim older than this belonged to a process that died; the next retry may take it over.
const STALE_CLAIM_MS = 60 * 1000;

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
  const expiresAt = new Date(now.getTime() + REPLAY_WINDOW_MS);
  const staleBefore = new Date(now.getTime() - STALE_CLAIM_MS);
  if (await claimIdempotencyKey(ctx.db, { clientId, key, fingerprint, now, expiresAt, staleBefore })) return { kind: 'claimed' };
  const row = await findIdempotencyKey(ctx.db, clientId, key);
  if (!row) return claim(ctx, clientId, key, fingerprint);
  if (row.fingerprint !== fingerprint) {
    throw conflict('This Idempotency-Key was already used with a different method, path or body.');
  }
  if (row.state === 'running' || row.status_code === null) {
    throw conflict('A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return {
    kind: 'replay',
    response: {
      status: row.status_code,
      body: openStoredBody(ctx, clientId, key, row.response_body),
      headers: { 'Idempotent-Replayed': 'true' },
    },
  };
};

/**
 * Before a request's `400`: a key that already belongs to a request (completed, or still running) answers
 * `409 IDEMPOTENCY_CONFLICT`, as Stripe does. That request was valid, so this one, which is not, is a different one.
 * A key nobody holds (or whose 24 hours are over) leaves the `400` to answer.
 */
export const refuseUsedKey = async (ctx: AppContext, clientId: string, key: string): Promise<void> => {
  const row = await findIdempotencyKey(ctx.db, clientId, key);
  if (!row || new Date(row.expires_at).getTime() <= ctx.clock.now().getTime()) return;
  if (row.state === 'running' || row.status_code === null) {
    throw conflict('A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  throw conflict('This Idempotency-Key was already used with a different method, path or body.');
};

/**
 * A stored answer is sealed like personal data: it can hold a minted user token, an enrolled customer's name and
 * e-mail, a webhook secret, for its 24 hours. Bound to its client and key, so a row copied elsewhere does not open.
 */
const sealContext = (clientId: string, key: string) => `idempotency_keys.response:${clientId}:${key}`;
const sealBody = (ctx: AppContext, clientId: string, key: string, body: unknown) => ({
  $sealed: ctx.cipher.encrypt(JSON.stringify(body ?? null), sealContext(clientId, key)),
});
const openStoredBody = (ctx: AppContext, clientId: string, key: string, stored: unknown): unknown => {
  const sealed = (stored as { $sealed?: unknown } | null)?.$sealed;
  // Answers stored before they were sealed are replayed as they are until they expire (24 h).
  return typeof sealed === 'string' ? JSON.parse(ctx.cipher.decrypt(sealed, sealContext(clientId, key))) : stored;
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
    await releaseIdempotencyKey(ctx.db, clientId, key);
    throw error;
  }
  if (isStorable(response)) {
    await completeIdempotencyKey(ctx.db, clientId, key, {
      status: response.status,
      body: sealBody(ctx, clientId, key, response.body),
    });
  } else await releaseIdempotencyKey(ctx.db, clientId, key);
  return response;
};
