import type { Redis } from 'ioredis';
import type { BureauCallClass } from '../provider.ts';

/** A client counts in the split while it has called within this long; then its share goes back to the others. */
export const ACTIVE_WINDOW_MS = 3_000;
/** How often a process tells Redis whom it has seen and reads whom the other processes have. */
const SYNC_INTERVAL_MS = 250;
const CLASSES: readonly BureauCallClass[] = ['interactive', 'monitoring'];

export interface ShareRules {
  /** The global cap: calls started per second by every process together. */
  perSecond: number;
  /** A client's weight in its class's split (BUREAU_CLIENT_WEIGHTS); 1 when not listed. */
  weights: ReadonlyMap<string, number>;
  /** The part of the cap monitoring keeps while interactive calls are active too (BUREAU_MONITORING_SHARE). */
  monitoringShare: number;
}

/** Who has called lately, per class: client id → time of its last call (epoch ms). */
export type ActiveSet = Record<BureauCallClass, ReadonlyMap<string, number>>;

const emptySeen = (): Record<BureauCallClass, Map<string, number>> => ({ interactive: new Map(), monitoring: new Map() });

/**
 * The calls per second a client may start in its class now: the class's part of the cap (all of it while the other
 * class is idle; else `1 - monitoringShare` for interactive and `monitoringShare` for monitoring), split between the
 * class's active clients by weight. A fraction is kept: see `slotsIn`.
 */
export const callsPerSecond = (rules: ShareRules, active: ActiveSet, callClass: BureauCallClass, clientId: string): number => {
  const weightOf = (id: string) => rules.weights.get(id) ?? 1;
  const otherClassActive = active[callClass === 'interactive' ? 'monitoring' : 'interactive'].size > 0;
  const classPart = !otherClassActive ? 1 : callClass === 'monitoring' ? rules.monitoringShare : 1 - rules.monitoringShare;
  let weights = active[callClass].has(clientId) ? 0 : weightOf(clientId);
  for (const id of active[callClass].keys()) weights += weightOf(id);
  return (rules.perSecond * classPart * weightOf(clientId)) / weights;
};

/**
 * Whole calls a rate allows in one calendar second, spreading its fraction over the seconds (2.5 a second: 2, 3, 2, 3,
 * …), so a share below one call a second still gets calls. `phase` (0–1, per client) staggers equal fractional shares,
 * so clients' slots fall in different seconds and the shares of a class add up to its part in every second.
 */
export const slotsIn = (rate: number, second: number, phase = 0): number =>
  Math.floor(rate * (second + 1) + phase) - Math.floor(rate * second + phase);

/** A stable phase in [0, 1) for a client id (FNV-1a), for `slotsIn`. */
export const phaseOf = (clientId: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < clientId.length; i++) hash = Math.imul(hash ^ clientId.charCodeAt(i), 0x01000193) >>> 0;
  return hash / 2 ** 32;
};

/**
 * The clients that have called in the last ACTIVE_WINDOW_MS, per class. Each process keeps what it saw itself; with
 * Redis it also sends that to one sorted set per class every SYNC_INTERVAL_MS and reads back what every process saw,
 * so the split is the same everywhere. While Redis is unreachable a process splits by what it saw alone.
 */
export class ActiveClients {
  readonly #local = emptySeen();
  /** Seen here since the last sync, not yet in Redis. */
  #unsent = emptySeen();
  #shared = emptySeen();
  #syncedAt = Number.NEGATIVE_INFINITY;
  #syncing: Promise<void> | undefined;

  constructor(
    private readonly keyPrefix: string,
    private readonly redis?: Redis,
  ) {}

  /** Records a call of `clientId` at `nowMs`, and brings the other processes' view up to date when it is due. */
  async note(callClass: BureauCallClass, clientId: string, nowMs: number): Promise<void> {
    this.#local[callClass].set(clientId, nowMs);
    this.#unsent[callClass].set(clientId, nowMs);
    // A call during a sync waits for it too (a round trip), so a burst is split by the fresh view, not the stale one.
    if (this.redis && (this.#syncing || nowMs - this.#syncedAt >= SYNC_INTERVAL_MS)) {
      this.#syncing ??= this.#sync(this.redis, nowMs).finally(() => {
        this.#syncing = undefined;
      });
      await this.#syncing;
    }
  }

  /** Who is active at `nowMs`, by this process's view merged with the other processes' as last read. */
  activeAt(nowMs: number): ActiveSet {
    const since = nowMs - ACTIVE_WINDOW_MS;
    const active = emptySeen();
    for (const callClass of CLASSES) {
      for (const seen of [this.#shared[callClass], this.#local[callClass]]) {
        for (const [id, at] of seen) {
          if (at <= since) seen.delete(id);
          else active[callClass].set(id, Math.max(at, active[callClass].get(id) ?? at));
        }
      }
    }
    return active;
  }

  async #sync(redis: Redis, nowMs: number): Promise<void> {
    this.#syncedAt = nowMs;
    // Like the limiters' rejectIfRedisNotReady: a connection that is not up is not waited for.
    if (redis.status !== 'ready') return;
    const unsent = this.#unsent;
    this.#unsent = emptySeen();
    const pipeline = redis.pipeline();
    for (const callClass of CLASSES) {
      const key = `${this.keyPrefix}:${callClass}`;
      for (const [id, at] of unsent[callClass]) pipeline.zadd(key, at, id);
      pipeline.zremrangebyscore(key, '-inf', nowMs - ACTIVE_WINDOW_MS);
      pipeline.zrange(key, 0, -1, 'WITHSCORES');
      pipeline.pexpire(key, ACTIVE_WINDOW_MS * 10);
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      const shared = emptySeen();
      for (const [index, callClass] of CLASSES.entries()) {
        // Each class queued its ZADDs, then ZREMRANGEBYSCORE, ZRANGE and PEXPIRE: its ZRANGE is the second from its end.
        const end = CLASSES.slice(0, index + 1).reduce((n, c) => n + unsent[c].size + 3, 0);
        const [error, members] = results[end - 2] ?? [new Error('no reply')];
        if (error) throw error;
        const flat = members as string[];
        for (let i = 0; i + 1 < flat.length; i += 2) shared[callClass].set(flat[i] as string, Number(flat[i + 1]));
      }
      this.#shared = shared;
    } catch {
      // Redis failed mid-way: what was not sent is sent with the next sync; meanwhile this process's view decides.
      for (const callClass of CLASSES) {
        for (const [id, at] of unsent[callClass]) {
          if (!this.#unsent[callClass].has(id)) this.#unsent[callClass].set(id, at);
        }
      }
    }
  }
}
