import { LRUCache } from 'lru-cache';
import { type Clock, realNow } from '../lib/clock.ts';

/**
 * What an entry depends on. A write names the tags it touched; every entry carrying one is dropped.
 * `client:<id>` covers a client and its tokens, `user:<id>` a user, their score and their file on record,
 * `scores:<id>` only the user's stored scores (a write of scores alone keeps the file on record cached).
 */
export type CacheTag = `client:${string}` | `user:${string}` | `scores:${string}` | '*';

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
  /** Bound on the estimated memory of all values (JSON length × 2 bytes per UTF-16 unit, plus overhead). */
  maxBytes?: number;
  /**
   * Whose time the TTL runs on: the context's clock (tests move it instead of sleeping). Its real time, never a
   * request's test-clock time, which may stand still or jump a year.
   */
  clock: Clock;
}

/** How long after a load started a read of the same key still waits for it rather than loading itself. */
const SHARED_LOAD_MS = 1_000;

/** A value's rough footprint: what it would take as JSON in UTF-16, plus the entry's own bookkeeping. */
const estimatedBytes = (entry: Entry): number => {
  try {
    return 2 * (JSON.stringify(entry.value)?.length ?? 0) + 256;
  } catch {
    return 4096;
  }
};

/**
 * The in-process read cache of the hot path. Correctness rests on one rule: a value loaded before an invalidation of
 * one of its tags is never served after it. Each invalidation takes the next number of a sequence and stamps its tags;
 * an entry remembers the sequence at which its load *started*, so a read that raced a write (loaded the old row, then
 * the write committed and invalidated) cannot refill the cache with the old row.
 *
 * Tag stamps are kept for the most recent invalidations only; when one is evicted the floor rises to its stamp, and a
 * tag with no stamp counts as invalidated at the floor. Forgetting a stamp therefore only ever drops entries early.
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
        // Read the clock on every check: lru-cache's default memo of "now" lasts a millisecond of wall-clock time, so
        // a test that moves the clock would otherwise see the old time until the wall clock moved too.
        ttlResolution: 0,
        ...(options.maxBytes ? { maxSize: options.maxBytes, sizeCalculation: estimatedBytes } : {}),
      });
    }
    this.tagStamps = new LRUCache({
      max: Math.max(1000, options.maxEntries),
      // Only a stamp that leaves (evicted as least recent) is forgotten. lru-cache also calls dispose when a key is
      // overwritten (`set`): a tag invalidated again keeps its newer stamp, and raising the floor there would drop
      // every entry in the cache on every repeated write (each write is stamped here and again by its own NOTIFY).
      dispose: (stamp, _tag, reason) => {
        if (reason !== 'set') this.floor = Math.max(this.floor, stamp);
      },
    });
  }

  get enabled(): boolean {
    return this.entries !== undefined;
  }

  /**
   * The cached value of `key`, or `load()`'s: stored with the tags `tagsOf` gives it, unless undefined (absence is
   * never cached) or already stale when the load resolves.
   *
   * Reads of a key that is being loaded share that load (its value, or its failure) instead of starting their own, so
   * an entry that expires under load is loaded once, not by every request that arrives meanwhile: one bureau pull
   * (billed per pull) and one answer's wait instead of a queue of them. A read shares a load only if nothing was
   * invalidated since the load started (else the load may have read what a write changed) and it started less than
   * SHARED_LOAD_MS ago (a load stuck on a dead connection holds up only the reads of its first second): else it loads
   * anew, and later reads share the new load.
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

  /**
   * Loads started since this cache was made: reads that found no current entry and no load to share (every read when
   * the cache is off), and went to the database or the bureau. What a benchmark watches to see whether writes empty the cache (bench:api, mixed).
   */
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
