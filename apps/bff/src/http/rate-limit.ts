import { type Operation, type RateLimitBucket, stringPolicyProblem } from '@credit/contract';
import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import type { ClientRecord } from '../core/principal.ts';

const WINDOW_SECONDS = 60;
/** Requests outside the API reference (docs, health, the widget frame, unknown routes) count here. */
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
  readonly #limiters = new Map<string, RateLimiterAbstract>();
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

  #limiter(bucket: RateLimitBucket, points: number): RateLimiterAbstract {
    const name = `${bucket}:${points}`;
    let limiter = this.#limiters.get(name);
    if (!limiter) {
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
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  async consume(bucket: RateLimitBucket, key: string, limit = this.defaults[bucket]): Promise<RateLimitOutcome> {
    const outcome = (res: RateLimiterRes, allowed: boolean): RateLimitOutcome => ({
      limit,
      remaining: Math.max(0, res.remainingPoints),
      resetAtSeconds: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
      retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      allowed,
    });
    try {
      return outcome(await this.#limiter(bucket, limit).consume(key), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return outcome(rejection, false);
      throw rejection;
    }
  }
}

/**
 * The client id a token request claims, from Basic auth or the form body. One that breaks the string policy
 * (a NUL) names no client and is never looked up: counted by address, and the token endpoint answers invalid_client.
 */
const claimedClientId = (authorization: string | undefined, body: unknown): string | undefined => {
  const claimed = presentedClientId(authorization, body);
  return claimed && claimed.length <= 100 && !stringPolicyProblem(claimed) ? claimed : undefined;
};

const presentedClientId = (authorization: string | undefined, body: unknown): string | undefined => {
  if (authorization && /^basic /i.test(authorization)) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const id = decoded.split(':')[0];
    try {
      return id ? decodeURIComponent(id) : undefined;
    } catch {
      // Undecodable credentials: count by address; the token endpoint answers invalid_client.
      return undefined;
    }
  }
  const fromBody = (body as { client_id?: unknown } | undefined)?.client_id;
  return typeof fromBody === 'string' ? fromBody : undefined;
};

const setHeaders = (res: Response, outcome: RateLimitOutcome) => {
  res.setHeader('X-RateLimit-Limit', String(outcome.limit));
  res.setHeader('X-RateLimit-Remaining', String(outcome.remaining));
  res.setHeader('X-RateLimit-Reset', String(outcome.resetAtSeconds));
};

const alreadyCounted = (res: Response) => res.getHeader('X-RateLimit-Limit') !== undefined;

/**
 * Counts the request against its caller's bucket, sets `X-RateLimit-*`, and throws 429 once the limit is spent.
 * A user token counts against its own customer's key (with its partner's limit), so one busy or hostile widget
 * cannot use up the partner's server-side budget, nor other customers'. Callers without a client (no or bad
 * credentials) are counted by IP address. A request is counted once, however many limited handlers it meets.
 */
export const limitRequest = async (
  ctx: AppContext,
  req: Request,
  res: Response,
  bucket: RateLimitBucket,
  claimedClient?: ClientRecord,
): Promise<void> => {
  if (alreadyCounted(res)) return;
  const principal = req.principal;
  const client = principal?.client ?? claimedClient;
  const key =
    principal?.kind === 'user'
      ? `client:${principal.client.id}:user:${principal.externalUserId}`
      : client
        ? `client:${client.id}`
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

/**
 * For an operation served outside `bindRoute` (the OAuth token endpoint): its contract bucket, and for a
 * client-credentials request the client it claims to be, so a partner's token requests share its own window.
 */
export const rateLimitedOperation =
  (ctx: AppContext, op: Pick<Operation, 'rateLimit' | 'auth'>): RequestHandler =>
  async (req, res, next) => {
    let claimed: ClientRecord | undefined;
    if (op.auth.kind === 'client-credentials' && !req.principal) {
      const id = claimedClientId(req.get('authorization'), req.body);
      claimed = id ? await ctx.auth.findClient(id) : undefined;
    }
    await limitRequest(ctx, req, res, op.rateLimit, claimed);
    next();
  };

/** For pages outside the API reference (docs, health, the widget frame): counted like any other request. */
export const rateLimitedPage =
  (ctx: AppContext): RequestHandler =>
  async (req, res, next) => {
    await limitRequest(ctx, req, res, PAGE_BUCKET);
    next();
  };

/** No route matched: the request still counts (so probing unknown paths spends the caller's budget), then 404. */
export const notFound =
  (ctx: AppContext): RequestHandler =>
  async (req, res) => {
    await limitRequest(ctx, req, res, PAGE_BUCKET);
    throw new ApiError('NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`);
  };

/**
 * For a request that failed before any limiter ran (the database was unreachable while resolving its token, or
 * its path could not be decoded): count it by IP, which needs no database, so the error still carries the headers.
 */
export const countUnlimitedFailure = async (ctx: AppContext, req: Request, res: Response) => {
  if (alreadyCounted(res)) return;
  try {
    setHeaders(res, await ctx.rateLimits.consume(PAGE_BUCKET, `ip:${req.ip}`));
  } catch {
    // The limiter's own store failed too; the error response goes out regardless.
  }
};
