import type { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Clock } from '../../lib/clock.ts';
import type { BureauCallClass } from '../provider.ts';
import { ActiveClients, callsPerSecond, phaseOf, type ShareRules, slotsIn } from './client-shares.ts';
import { BureauBusyError, BureauShareExceededError } from './errors.ts';

/** Waiters for the next second start at random within this much of it, so they do not reach Redis at one instant. */
const WAKE_JITTER_MS = 40;
/** The longest Retry-After a refusal for the share names, whatever its queue and rate say. */
const MAX_RETRY_AFTER_SECONDS = 60;

export interface RateCapOptions {
  perSecond: number;
  /** Names the counters: every process calling the same bureau must use the same prefix. */
  keyPrefix: string;
  /** Shared by every process when given; otherwise the cap holds in this process only. */
  redis?: Redis;
  /** Whose seconds are counted and waited for (the system clock but in tests, which move it instead of sleeping). */
  clock: Clock;
  /** Client weights (default 1 each). */
  weights?: ReadonlyMap<string, number>;
  /** The part of the cap monitoring keeps while interactive calls are active too; 0.3 when not given. */
  monitoringShare?: number;
}

/** Whose call takes a slot. */
export interface CapCall {
  clientId: string;
  callClass: BureauCallClass;
}

/** Second boundaries strictly between `nowMs` and `deadline`: the fresh seconds a waiter can still try. */
const secondsBefore = (deadline: number, nowMs: number) => Math.floor((deadline - 1) / 1000) - Math.floor(nowMs / 1000);

/**
 * At most `perSecond` bureau calls start in any calendar second, across every process sharing the Redis, and each
 * client gets its fair share of them (./client-shares.ts): its class's part of the cap split by weight between the
 * clients active in that class. rate-limiter-flexible counts, one counter per second (windows line up with the bureau's
 * own per-second accounting): one for the cap and one per class and client. A call over its client's share, or finding
 * the cap full, waits for the next second until its deadline; a call over its share with more of its client's calls
 * waiting here ahead of it than the seconds left can serve is refused at once. While Redis is unreachable each process applies the
 * cap and the shares on its own (the insurance limiters), as the API's own rate limits do.
 */
export class BureauRateCap {
  readonly #cap: RateLimiterAbstract;
  readonly #shares: RateLimiterAbstract;
  readonly #active: ActiveClients;
  readonly #rules: ShareRules;
  readonly #clock: Clock;
  /** Calls of this process waiting for a later second, by class and client: their tickets, older ones lower. */
  readonly #waiting = new Map<string, Set<number>>();
  #tickets = 0;

  constructor({ perSecond, keyPrefix, redis, clock, weights = new Map(), monitoringShare = 0.3 }: RateCapOptions) {
    this.#clock = clock;
    this.#rules = { perSecond, weights, monitoringShare };
    this.#active = new ActiveClients(`${keyPrefix}:active`, redis);
    // Two seconds of life: a counter must outlive the second it counts, whatever the clock drift between Redis and us.
    const limiter = (prefix: string) => {
      const options = { keyPrefix: prefix, points: perSecond, duration: 2 };
      return redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(options),
          })
        : new RateLimiterMemory(options);
    };
    this.#cap = limiter(keyPrefix);
    // A share never exceeds the cap, so `perSecond` points are enough for any client's count in a second.
    this.#shares = limiter(`${keyPrefix}:share`);
  }

  /**
   * Resolves once this call holds a slot. Throws BureauShareExceededError when its client's share had no slot for it
   * before `deadline` (epoch ms), BureauBusyError when its share did but the cap was full.
   */
  async take(deadline: number, call: CapCall): Promise<void> {
    const key = `${call.callClass}:${call.clientId}`;
    const waiting = this.#waiting.get(key) ?? new Set<number>();
    this.#waiting.set(key, waiting);
    const ticket = ++this.#tickets;
    try {
      for (;;) {
        const nowMs = this.#clock.now().getTime();
        const second = Math.floor(nowMs / 1000);
        await this.#active.note(call.callClass, call.clientId, nowMs);
        const rate = callsPerSecond(this.#rules, this.#active.activeAt(nowMs), call.callClass, call.clientId);
        const withinShare = await this.#consume(this.#shares, `${key}:${second}`, slotsIn(rate, second, phaseOf(call.clientId)));
        if (withinShare) {
          // Out of the queue at once: the calls behind it count only those still waiting.
          waiting.delete(ticket);
          if (await this.#consume(this.#cap, String(second), this.#rules.perSecond)) return;
        }
        let ahead = 0;
        for (const other of waiting) if (other < ticket) ahead += 1;
        const seconds = secondsBefore(deadline, nowMs);
        if (seconds < 1 || (!withinShare && ahead >= rate * seconds)) {
          if (withinShare) throw new BureauBusyError();
          const retryAfter = rate > 0 ? Math.ceil((ahead + 1) / rate) : MAX_RETRY_AFTER_SECONDS;
          throw new BureauShareExceededError(Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(1, retryAfter)));
        }
        waiting.add(ticket);
        await this.#clock.sleep((second + 1) * 1000 - nowMs + Math.random() * WAKE_JITTER_MS);
      }
    } finally {
      waiting.delete(ticket);
      if (waiting.size === 0) this.#waiting.delete(key);
    }
  }

  /** Counts one call under `key`; true while that count is within `allowed`. */
  async #consume(limiter: RateLimiterAbstract, key: string, allowed: number): Promise<boolean> {
    if (allowed < 1) return false;
    try {
      return (await limiter.consume(key)).consumedPoints <= allowed;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return false;
      throw rejection;
    }
  }
}
