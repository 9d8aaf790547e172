import { ALL_OPERATIONS, type RateLimitBucket, stringPolicyProblem } from '@credit/contract';
import type { Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';

const WINDOW_SECONDS = 60;

export interface RateLimitOutcome {
  limit: number;
  remaining: number;
  resetAtSeconds: number;
  retryAfterSeconds: number;
  allowed: boolean;
}

/**
 * Fixed one-minute windows per client and bucket (rate-limiter-flexible). In memory by default;
 * in Redis when `REDIS_URL` is set so several instances share one count, with a per-process
 * memory limiter as insurance if Redis stops answering.
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
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
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

/** `/v1/users/{userId}` → a regex, so a request maps to its operation's bucket before routing. */
const BUCKET_MATCHERS = ALL_OPERATIONS.map((op) => ({
  method: op.method.toUpperCase(),
  pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
  bucket: op.rateLimit,
}));

export const bucketFor = (method: string, path: string): RateLimitBucket =>
  BUCKET_MATCHERS.find((m) => m.method === method && m.pattern.test(path))?.bucket ?? 'userOps';

/**
 * The client id a token request claims, from Basic auth or the form body. One that breaks the string policy
 * (a NUL) names no client and is never looked up: counted by address, and the token endpoint answers invalid_client.
 */
const claimedClientId = (authorization: string | undefined, body: unknown): string | undefined => {
  const claimed = presentedClientId(authorization, body);
  return claimed && !stringPolicyProblem(claimed) ? claimed : undefined;
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

/**
 * Counts the request against its client's bucket and sets `X-RateLimit-*` on every response.
 * Callers without a client (no or bad credentials) are counted by IP address.
 */
const setHeaders = (res: Response, outcome: RateLimitOutcome) => {
  res.setHeader('X-RateLimit-Limit', String(outcome.limit));
  res.setHeader('X-RateLimit-Remaining', String(outcome.remaining));
  res.setHeader('X-RateLimit-Reset', String(outcome.resetAtSeconds));
};

/**
 * Counts the request against its client's bucket and sets `X-RateLimit-*` on every response.
 * Callers without a client (no or bad credentials) are counted by IP address.
 */
export const rateLimit =
  (ctx: AppContext): RequestHandler =>
  async (req, res, next) => {
    const bucket = bucketFor(req.method, req.path);
    let client = req.principal?.client;
    if (!client && req.path === '/oauth/token') {
      const claimed = claimedClientId(req.get('authorization'), req.body);
      client = claimed && claimed.length <= 100 ? await ctx.auth.findClient(claimed) : undefined;
    }
    // A user token counts against its own customer's bucket (same limit), so one busy or hostile widget
    // cannot use up the partner's server-side budget, nor other customers'.
    const principal = req.principal;
    const key =
      principal?.kind === 'user'
        ? `client:${principal.client.id}:user:${principal.externalUserId}`
        : client
          ? `client:${client.id}`
          : `ip:${req.ip}`;
    const limit = client?.rateLimits[bucket] ?? ctx.rateLimits.defaults[bucket];
    const outcome = await ctx.rateLimits.consume(bucket, key, limit);
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
    next();
  };

/**
 * For a request that failed before the limiter ran (the database was unreachable while resolving
 * its token): count it by IP, which needs no database, so the error still carries the headers.
 */
export const countUnlimitedFailure = async (ctx: AppContext, req: Request, res: Response) => {
  if (res.getHeader('X-RateLimit-Limit') !== undefined) return;
  try {
    setHeaders(res, await ctx.rateLimits.consume(bucketFor(req.method, req.path), `ip:${req.ip}`));
  } catch {
    // The limiter's own store failed too; the error response goes out regardless.
  }
};
