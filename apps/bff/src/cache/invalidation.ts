import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/db.ts';
import { notify } from '../db/notify.ts';
import type { CacheTag, ReadCache } from './read-cache.ts';

/** NOTIFY channel on which every instance hears which cache tags a committed write touched. */
export const INVALIDATION_CHANNEL = 'read_cache_invalidation';

/** NOTIFY payloads stop at 8,000 bytes; a write touching more tags than fit clears every cache instead. */
const MAX_PAYLOAD = 7_000;

/**
 * Tells every instance, through NOTIFY on the writing transaction (delivered only if it commits), to drop entries
 * carrying `tags`. Ids only: payloads carry no personal data. Called by `writeTransaction` alone.
 */
const announceInvalidation = async (db: Queryable, tags: readonly CacheTag[]): Promise<void> => {
  if (tags.length === 0) return;
  const payload = JSON.stringify(tags);
  await notify(db, INVALIDATION_CHANNEL, payload.length > MAX_PAYLOAD ? '["*"]' : payload);
};

/**
 * A transaction that knows what it wrote. A repo's write helper takes one (so it cannot run outside it) and names
 * the cache tags of the rows it changed itself: invalidation is owned by the write, not remembered by its caller.
 */
export interface WriteTx extends Queryable {
  /** The cached things this write changed: dropped everywhere once the transaction ends (see writeTransaction). */
  touches(...tags: CacheTag[]): void;
  /**
   * Sends the NOTIFY for the tags touched so far through `through` now (a group commit's held writes, so it needs no
   * round trip of its own); the transaction's end sends it again only if a tag was touched since.
   */
  announceThrough?(through: Queryable): Promise<void>;
}

/**
 * Runs `work` in one transaction and drops the entries of every tag its writes touched: on this instance (`cache`,
 * when the caller holds one; a CLI does not) once the transaction has ended, before the caller gets an answer; on
 * every instance through NOTIFY when it commits. The one path for every write that changes cached data.
 * `work` also gets `touches` on its own, for a service that names a tag for writes it makes itself.
 */
export const writeTransaction = async <T>(
  db: Db,
  cache: ReadCache | undefined,
  work: (tx: WriteTx, touches: WriteTx['touches']) => Promise<T>,
): Promise<T> => {
  const tags = new Set<CacheTag>();
  const touches = (...touched: CacheTag[]) => {
    for (const tag of touched) tags.add(tag);
  };
  let announced = 0;
  const announceThrough = async (through: Queryable) => {
    announced = tags.size;
    await announceInvalidation(through, [...tags]);
  };
  try {
    return await db.transaction(async (tx) => {
      const writeTx: WriteTx = { query: tx.query.bind(tx), exec: tx.exec.bind(tx), touches, announceThrough };
      const result = await work(writeTx, touches);
      // Tags only grow, so a size unchanged since announceThrough means every tag has been announced.
      if (tags.size !== announced) await announceInvalidation(tx, [...tags]);
      return result;
    });
  } finally {
    // Also after a rollback: dropping an entry is always safe, keeping one a failed write may have read is not.
    cache?.invalidate([...tags]);
  }
};

const parseTags = (payload: string): string[] => {
  try {
    const tags: unknown = JSON.parse(payload);
    return Array.isArray(tags) && tags.every((tag) => typeof tag === 'string') ? tags : ['*'];
  } catch {
    return ['*'];
  }
};

/**
 * Applies other instances' invalidations to `cache`. While the listener is down the cache stores nothing (it would
 * miss invalidations); without LISTEN at all it stays off. Ends with the database (`db.close()`).
 */
export const applyInvalidationsFrom = async (db: Db, cache: ReadCache, logger: Logger): Promise<void> => {
  if (!cache.enabled) return;
  if (!db.listen) {
    cache.suspend();
    return;
  }
  try {
    await db.listen(
      INVALIDATION_CHANNEL,
      (payload) => cache.invalidate(parseTags(payload)),
      (connected) => {
        if (connected) {
          logger.info('cache invalidations arrive again; the read cache is back on');
          cache.resume();
        } else {
          logger.warn('lost the cache invalidation listener; reading from the database until it reconnects');
          cache.suspend();
        }
      },
    );
  } catch (error) {
    logger.warn({ err: error }, 'cannot LISTEN for cache invalidations; the read cache stays off');
    cache.suspend();
  }
};
