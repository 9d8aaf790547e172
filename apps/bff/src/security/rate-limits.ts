import type { RateLimitBucket } from '@credit/contract';
import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';

// The counters behind the API's rate limits: per bucket and limit, in Redis or in memory. http/rate-limit.ts decides
// what a request counts against and answers the limits' headers and 429s.

const WINDOW_SECONDS = 60;
/** The contract's buckets, and failed client authentications (counted apart from any client's own window). */
export type LimiterName = RateLimitBucket | 'authFailures';

/** Being asked at all means a Redis command just failed or timed out, so it also tells the connection to start over. */
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
 * Reopening a "ready" connection that let a command time out sends every request straight to the insurance until Redis
 * answers again, so at most one request per reconnect waits out the command timeout.
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
 * In Redis when `REDIS_URL` is set so instances share one count, with over-limit keys blocked in memory to spare Redis
 * round trips; a per-process insurance limiter decides when Redis is down, so Redis never takes the API down.
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
            // The block lasts until the key's Redis window ends, so the rest of the window is answered from memory.
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

  /** Counts one request against `key`; `now` dates the window's reset (the limiter itself only says how far off it is). */
  async consume(bucket: LimiterName, key: string, limit: number, now: Date): Promise<RateLimitOutcome> {
    try {
      return outcomeOf(limit, await this.#limiter(bucket, limit).consume(key), true, now);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return outcomeOf(limit, rejection, false, now);
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

const outcomeOf = (limit: number, res: RateLimiterRes, allowed: boolean, now: Date): RateLimitOutcome => ({
  limit,
  remaining: Math.max(0, res.remainingPoints),
  resetAtSeconds: Math.ceil((now.getTime() + res.msBeforeNext) / 1000),
  retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  allowed,
});
