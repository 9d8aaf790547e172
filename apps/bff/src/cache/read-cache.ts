import { LRUCache } from 'lru-cache';
import { type Clock, realNow } from '../lib/clock.ts';

/**
 * A write names the tags it touched and every entry carrying one is dropped; `scores:<id>` is apart from `user:<id>` so a
 * write of scores alone keeps the file on record cached.
 */
export type CacheTag = `client:${string}` | `user:${string}` | `scores:${string}` | `offers:${string}` | '*';
/** A client's offers catalogue. */
export const offersTag = (clientId: string): CacheTag => `offers:${clientId}`;

export const clientTag = (clientId: string): CacheTag => `client:${clientId}`;
export const userTag = (userId: string): CacheTag => `user:${userId}`;
export const scoresTag = (userId: string): CacheTag => `scores:${userId}`;

interface Entry {
  value: unknown;
  tags: readonly CacheTag[];
  /** The invalidation sequence when its load started: any later invalidation of one of its tags makes it stale. */
  loadedAt: number;
}

export interface ReadCacheOptions {
  /** Backstop lifetime in ms; 0 disables caching altogether. */
  ttlMs: number;
  maxEntries: number;
  /** Bound on the estimated memory of all values. */
  maxBytes?: number;
  /** Its real time (tests move it instead of sleeping), never a request's test-clock time, which may stand still or jump. */
  clock: Clock;
}

/** How long after a load started a read of the same key still waits for it rather than loading itself. */
const SHARED_LOAD_MS = 1_000;

const estimatedBytes = (entry: Entry): number => {
  try {
    return 2 * (JSON.stringify(entry.value)?.length ?? 0) + 256;
  } catch {
    return 4096;
  }
};

/**
 * Entries remember the invalidation sequence at which their load *started*, so a read that raced a write cannot refill the
 * cache with the old row. An evicted tag stamp raises the floor, so forgetting one only ever drops entries early.
 */
export class ReadCache {
  private readonly entries?: LRUCache<string, Entry>;
  private readonly tagStamps: LRUCache<string, number>;
  private sequence = 0;
  private floor = 0;
  /** While invalidations from other instances may be missed (listener down), nothing is stored. */
  private suspended = false;
  /** Loads under way, by key, with the invalidation sequence and the time when each started: what a read may share. */
  private readonly loading = new Map<string, { startedAt: number; startedMs: number; value: Promise<unknown> }>();
  private readonly now: () => number;
  private loadsStarted = 0;

  constructor(options: ReadCacheOptions) {
    this.now = () => realNow(options.clock).getTime();
    if (options.ttlMs > 0) {
      this.entries = new LRUCache<string, Entry>({
        max: options.maxEntries,
        ttl: options.ttlMs,
        ttlAutopurge: false,
        perf: { now: this.now },
        // lru-cache memoises "now" for a wall-clock millisecond, so a test that moves the clock would see the old time.
        ttlResolution: 0,
        ...(options.maxBytes ? { maxSize: options.maxBytes, sizeCalculation: estimatedBytes } : {}),
      });
    }
    this.tagStamps = new LRUCache({
      max: Math.max(1000, options.maxEntries),
      // dispose also fires on overwrite (`set`), where the tag keeps its newer stamp: raising the floor then would empty
      // the cache on every repeated write.
      dispose: (stamp, _tag, reason) => {
        if (reason !== 'set') this.floor = Math.max(this.floor, stamp);
      },
    });
  }

  get enabled(): boolean {
    return this.entries !== undefined;
  }

  /**
   * Reads of a key being loaded share that load, so an expired entry costs one (billed) bureau pull, not one per request.
   * A load is shared only if nothing was invalidated since it started and it is under SHARED_LOAD_MS old, so a stale or
   * stuck load is never shared.
   */
  async read<T>(
    key: string,
    load: () => Promise<T | undefined>,
    tagsOf: (value: T) => readonly CacheTag[],
  ): Promise<T | undefined> {
    const entries = this.entries;
    if (!entries) {
      this.loadsStarted += 1;
      return load();
    }
    const hit = entries.get(key);
    if (hit && this.isCurrent(hit.tags, hit.loadedAt)) return hit.value as T;
    const underWay = this.loading.get(key);
    const now = this.now();
    if (underWay && underWay.startedAt === this.sequence && now - underWay.startedMs < SHARED_LOAD_MS) {
      return underWay.value as Promise<T | undefined>;
    }
    const loadedAt = this.sequence;
    this.loadsStarted += 1;
    const value = (async () => {
      const loaded = await load();
      if (loaded === undefined || this.suspended) return loaded;
      const tags = tagsOf(loaded);
      if (this.isCurrent(tags, loadedAt)) entries.set(key, { value: loaded, tags, loadedAt });
      return loaded;
    })();
    this.loading.set(key, { startedAt: loadedAt, startedMs: now, value });
    const settled = () => {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
    };
    value.then(settled, settled);
    return value;
  }

  /** Drops every entry carrying one of `tags` (`*`: everything), including loads still in flight. */
  invalidate(tags: readonly string[]): void {
    this.sequence += 1;
    if (tags.includes('*')) {
      this.floor = this.sequence;
      this.entries?.clear();
      return;
    }
    for (const tag of tags) this.tagStamps.set(tag, this.sequence);
  }

  /** Invalidations may be lost from now on (the NOTIFY listener dropped): serve from the database only. */
  suspend(): void {
    this.suspended = true;
    this.invalidate(['*']);
  }

  /** Invalidations arrive again; what was cached before may have missed some, so start empty. */
  resume(): void {
    this.suspended = false;
    this.invalidate(['*']);
  }

  /** Loads started (every read when the cache is off): what a benchmark watches to see whether writes empty the cache. */
  get loads(): number {
    return this.loadsStarted;
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }

  private isCurrent(tags: readonly CacheTag[], loadedAt: number): boolean {
    if (loadedAt < this.floor) return false;
    for (const tag of tags) {
      if ((this.tagStamps.peek(tag) ?? this.floor) > loadedAt) return false;
    }
    return true;
  }
}
