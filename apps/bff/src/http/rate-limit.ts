import type { ServerResponse } from 'node:http';
import { type Operation, type RateLimitBucket, stringPolicyProblem } from '@credit/contract';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import type { ClientRecord } from '../core/principal.ts';
import { realNow } from '../lib/clock.ts';
import type { RateLimitOutcome } from '../security/rate-limits.ts';
import type { HttpRequest } from './api-request.ts';
import { isBasicAuthorization, parseBasicCredentials } from './basic-credentials.ts';

/** Requests that name no contract operation (docs, health, the widget frame, unknown routes) count here. */
const PAGE_BUCKET: RateLimitBucket = 'userOps';

/** An id that breaks the string policy (a NUL) is never looked up: it is counted by address instead. */
const claimedClientId = (authorization: string | undefined, body: unknown): string | undefined => {
  const claimed = presentedClientId(authorization, body);
  return claimed && claimed.length <= 100 && !stringPolicyProblem(claimed) ? claimed : undefined;
};

const presentedClientId = (authorization: string | undefined, body: unknown): string | undefined => {
  // Undecodable Basic credentials name no client: counted by address; the token endpoint answers invalid_client.
  if (isBasicAuthorization(authorization)) return parseBasicCredentials(authorization)?.clientId;
  const fromBody = (body as { client_id?: unknown } | undefined)?.client_id;
  return typeof fromBody === 'string' ? fromBody : undefined;
};

const setHeaders = (res: ServerResponse, outcome: RateLimitOutcome) => {
  res.setHeader('X-RateLimit-Limit', String(outcome.limit));
  res.setHeader('X-RateLimit-Remaining', String(outcome.remaining));
  res.setHeader('X-RateLimit-Reset', String(outcome.resetAtSeconds));
};

const claimedClient = async (ctx: AppContext, req: HttpRequest): Promise<ClientRecord | undefined> => {
  const id = claimedClientId(req.get('authorization'), req.body);
  if (!id) return undefined;
  try {
    return await ctx.auth.findClient(id);
  } catch {
    // The database is unreachable: count by address; the token endpoint answers 503 itself.
    return undefined;
  }
};

/**
 * A user token counts in its customer's own window and in its client's, so one customer cannot spend more than their
 * share and all of a partner's customers together no more than the partner's limit; a token request counts against
 * the client it claims from its address, so others naming the partner's id never spend the partner's window.
 */
export const countRequest = async (
  ctx: AppContext,
  req: HttpRequest,
  res: ServerResponse,
  operation?: Pick<Operation, 'rateLimit' | 'auth'>,
): Promise<void> => {
  const bucket = operation?.rateLimit ?? PAGE_BUCKET;
  const principal = req.principal;
  const client = principal?.client ?? (operation?.auth.kind === 'client-credentials' ? await claimedClient(ctx, req) : undefined);
  const key = principal ? `client:${principal.client.id}` : client ? `client:${client.id}:ip:${req.ip}` : `ip:${req.ip}`;
  const limit = client?.rateLimits[bucket] ?? ctx.rateLimits.defaults[bucket];
  // Windows concern the caller, not a user's test clock: the base clock dates them.
  const now = realNow(ctx.clock);
  let outcome: RateLimitOutcome;
  if (principal?.kind === 'user') {
    const own = await ctx.rateLimits.consume(
      bucket,
      `${key}:user:${principal.externalUserId}`,
      Math.min(limit, ctx.config.RATE_LIMIT_USER_TOKEN_PER_MIN),
      now,
    );
    const shared = own.allowed ? await ctx.rateLimits.consume(bucket, key, limit, now) : undefined;
    // The headers describe the window that runs out first.
    outcome = !shared || (shared.allowed && own.remaining < shared.remaining) ? own : shared;
  } else {
    outcome = await ctx.rateLimits.consume(bucket, key, limit, now);
  }
  setHeaders(res, outcome);
  if (!outcome.allowed) {
    res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
    throw new ApiError(
      'RATE_LIMIT_EXCEEDED',
      `Rate limit of ${outcome.limit} requests per minute exceeded; retry after ${outcome.retryAfterSeconds} s.`,
      undefined,
      { retryAfter: outcome.retryAfterSeconds },
    );
  }
};

/** Failed client authentications allowed per minute from one address for one client id, and (× 3) for any. */
const failureKeys = (ctx: AppContext, req: HttpRequest, clientId: string) => {
  const perClient = ctx.config.RATE_LIMIT_AUTH_FAILURES_PER_MIN;
  return [
    // Ids past 100 characters name no client (never looked up): cut, so no key grows with what a caller sends.
    { key: `ip:${req.ip}:client:${clientId.slice(0, 100)}`, limit: perClient },
    { key: `ip:${req.ip}`, limit: perClient * 3 },
  ];
};

/**
 * Only failures count, per address, so someone failing elsewhere never locks a partner out. Parallel guesses can each
 * pass before the others fail; the per-(client, address) request limit still bounds them.
 */
export const assertCredentialAttemptsLeft = async (ctx: AppContext, req: HttpRequest, clientId: string): Promise<void> => {
  for (const { key, limit } of failureKeys(ctx, req, clientId)) {
    const waitSeconds = await ctx.rateLimits.blockedFor('authFailures', key, limit);
    if (waitSeconds !== undefined) {
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        `Too many failed client authentications from this address; retry after ${waitSeconds} s. Check the client ` +
          'id and secret your server sends (and, in production, that this address is on the client’s allowlist).',
        undefined,
        { retryAfter: waitSeconds },
      );
    }
  }
};

/** Counts one failed client authentication against the address, for the client id it named and overall. */
export const recordFailedCredentials = async (ctx: AppContext, req: HttpRequest, clientId: string): Promise<void> => {
  const now = realNow(ctx.clock);
  for (const { key, limit } of failureKeys(ctx, req, clientId)) await ctx.rateLimits.consume('authFailures', key, limit, now);
};
