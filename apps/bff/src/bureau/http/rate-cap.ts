import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../../lib/clock.ts';
import { BureauBusyError } from './errors.ts';

/** Waiters for the next second start at random within this much of it, so they do not reach Redis at one instant. */
const WAKE_JITTER_MS = 40;

export interface RateCapOptions {
  perSecond: number;
  /** Names the counter: every process calling the same bureau must use the same prefix. */
  keyPrefix: string;
  /** Shared by every process when given; otherwise the cap holds in this process only. */
  redis?: Redis;
  /** Whose seconds are counted and waited for (the system clock but in tests, which move it instead of sleeping). */
  clock: Clock;
}

/**
 * At most `perSecond` bureau calls start in any calendar second, across every process sharing the Redis
 * (rate-limiter-flexible counts; one counter per second, so windows line up with the bureau's own
 * per-second accounting rather than starting wherever the first call fell). A call over the cap waits for the
 * next second instead of failing, until its deadline. While Redis is unreachable each process applies the cap
 * on its own (the insurance limiter), as the API's own rate limits do: a Redis outage never stops credit reads.
 */
export class BureauRateCap {
  readonly #limiter: RateLimiterAbstract;
  readonly #clock: Clock;

  constructor({ perSecond, keyPrefix, redis, clock }: RateCapOptions) {
    this.#clock = clock;
    // Two seconds of life: a counter must outlive the second it counts, whatever the clock drift between Redis and us.
    const options = { keyPrefix, points: perSecond, duration: 2 };
    this.#limiter = redis
      ? new RateLimiterRedis({
          ...options,
          storeClient: redis,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory(options),
        })
      : new RateLimiterMemory(options);
  }

  /** Resolves once this call holds a slot; throws BureauBusyError when none is free before `deadline` (epoch ms). */
  async take(deadline: number): Promise<void> {
    for (;;) {
      const second = Math.floor(this.#clock.now().getTime() / 1000);
      try {
        await this.#limiter.consume(String(second));
        return;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
      }
      const nextSecond = (second + 1) * 1000;
      if (nextSecond >= deadline) throw new BureauBusyError();
      await this.#clock.sleep(nextSecond - this.#clock.now().getTime() + Math.random() * WAKE_JITTER_MS);
    }
  }
}
