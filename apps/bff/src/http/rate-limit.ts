import type { ServerResponse } from 'node:http';
import { type Operation, type RateLimitBucket, stringPolicyProblem } from '@credit/contract';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import type { ClientRecord } from '../core/principal.ts';
import type { HttpRequest } from './api-request.ts';
import { isBasicAuthorization, parseBasicCredentials } from './basic-credentials.ts';

const WINDOW_SECONDS = 60;
/** The contract's buckets, and failed client authentications (counted apart from any client's own window). */
type LimiterName = RateLimitBucket | 'authFailures';
/** Requests that name no contract operation (docs, health, the widget frame, unknown routes) count here. */
const PAGE_BUCKET: RateLimitBucket = 'userOps';

/**
 * The per-process limiter that decides while Redis cannot. Being asked at all means a Redis command just failed
 * or timed out (`REDIS_TIMEOUT_MS`), so it also tells the connection to start over.
 */
class InsuranceLimiter extends RateLimiterMemory {
  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    readonly onUse: () => void,
  ) {
    super(options);
  }
  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.onUse();
    return super.consume(...args);
  }
}

/**
 * A connection that is "ready" yet let a command time out (Redis stopped answering) is dropped and reopened:
 * until Redis answers the reconnect's ready check, `rejectIfRedisNotReady` sends every request straight to the
 * insurance, so at most one request per reconnect waits out the command timeout.
 */
const resetStalledConnection = (redis: Redis) => {
  if (redis.status === 'ready') redis.disconnect(true);
};

export interface RateLimitOutcome {
  limit: number;
  remaining: number;
  resetAtSeconds: number;
  retryAfterSeconds: number;
  allowed: boolean;
}

/**
 * Fixed one-minute windows per client and bucket (rate-limiter-flexible). In memory by default; in Redis when
 * `REDIS_URL` is set so several instances share one count. With Redis, a key over its limit is blocked in this
 * process's memory until its window ends (`inMemoryBlockOnConsumed`), so a caller hammering past its limit costs
 * no Redis round trip; and when Redis is unreachable or slow (see `connectRedis`), a per-process memory limiter
 * (the insurance) decides instead, so Redis going down never takes the API down.
 */
export class RateLimits {
  /** By bucket, then by limit: no key string to build per request. */
  readonly #limiters = new Map<LimiterName, Map<number, RateLimiterAbstract>>();
  constructor(
    readonly defaults: Record<RateLimitBucket, number>,
    readonly redis?: Redis,
  ) {}

  static fromConfig(config: Config, redis?: Redis): RateLimits {
    return new RateLimits(
      {
        auth: config.RATE_LIMIT_AUTH_PER_MIN,
        batch: config.RATE_LIMIT_BATCH_PER_MIN,
        userOps: config.RATE_LIMIT_USER_OPS_PER_MIN,
      },
      redis,
    );
  }

  #limiter(bucket: LimiterName, points: number): RateLimiterAbstract {
    let byPoints = this.#limiters.get(bucket);
    if (!byPoints) {
      byPoints = new Map();
      this.#limiters.set(bucket, byPoints);
    }
    let limiter = byPoints.get(points);
    if (!limiter) {
      const name = `${bucket}:${points}`;
      const options = { keyPrefix: `rl:${name}`, points, duration: WINDOW_SECONDS };
      const redis = this.redis;
      limiter = redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            // Without inMemoryBlockDuration the block lasts until the key's Redis window ends: once the last
            // allowed request is counted, the rest of the window is answered from memory.
            inMemoryBlockOnConsumed: points,
            // While the connection is down, go straight to the insurance rather than waiting on each command.
            rejectIfRedisNotReady: true,
            insuranceLimiter: new InsuranceLimiter(options, () => resetStalledConnection(redis)),
          })
        : new RateLimiterMemory(options);
      byPoints.set(points, limiter);
    }
    return limiter;
  }

  async consume(bucket: LimiterName, key: string, limit: number): Promise<RateLimitOutcome> {
    try {
      return outcomeOf(limit, await this.#limiter(bucket, limit).consume(key), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return outcomeOf(limit, rejection, false);
      throw rejection;
    }
  }

  /** Seconds until `key` may be counted again when its window is used up; undefined while it has points left. */
  async blockedFor(bucket: LimiterName, key: string, limit: number): Promise<number | undefined> {
    // Redis unreachable: the attempt goes on to its own check (and is counted by the insurance when it fails).
    const res = await this.#limiter(bucket, limit)
      .get(key)
      .catch(() => null);
    if (!res || res.consumedPoints < limit) return undefined;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }
}

// Module-level rather than a closure made on every call of `consume`.
const outcomeOf = (limit: number, res: RateLimiterRes, allowed: boolean): RateLimitOutcome => ({
  limit,
  remaining: Math.max(0, res.remainingPoints),
  resetAtSeconds: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
  retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  allowed,
});

/**
 * The client id a token request claims, from Basic auth or the form body. One that breaks the string policy
 * (a NUL) names no client and is never looked up: counted by address, and the token endpoint answers invalid_client.
 */
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

/** The client a token request claims to be (its own window), or undefined: counted by address then. */
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
 * The one place a request is counted, once, before it is served: in the bucket of the contract operation it names
 * (`operation`), else in the pages' bucket (docs, health, the widget frame, unknown routes). Sets `X-RateLimit-*`,
 * and throws 429 once the limit is spent.
 *
 * The key: a user token counts against its own customer (with its partner's limit), so one busy or hostile widget
 * cannot use up the partner's server-side budget, nor other customers'; an access token against its client; a
 * token request (client credentials) against the client it claims from its address, so someone else's requests
 * naming the partner's client id never use up the partner's own window; anyone else (no, bad or unresolvable
 * credentials) by IP address.
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
  const key =
    principal?.kind === 'user'
      ? `client:${principal.client.id}:user:${principal.externalUserId}`
      : principal
        ? `client:${principal.client.id}`
        : client
          ? `client:${client.id}:ip:${req.ip}`
          : `ip:${req.ip}`;
  const outcome = await ctx.rateLimits.consume(bucket, key, client?.rateLimits[bucket] ?? ctx.rateLimits.defaults[bucket]);
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
 * Refuses a token request (429, before its secret is checked) from an address that has used up its failed attempts,
 * for this client id or for any. Counted per address only: someone failing from elsewhere never locks a partner out.
 * Only failures count (recordFailedCredentials), so a partner's burst of good requests is never held back; guesses
 * sent in parallel can each pass this check before the others have failed, which the per-(client, address) request
 * limit still bounds.
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
  for (const { key, limit } of failureKeys(ctx, req, clientId)) await ctx.rateLimits.consume('authFailures', key, limit);
};
