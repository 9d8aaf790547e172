import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/db.ts';
import type { CacheTag, ReadCache } from './read-cache.ts';

/** NOTIFY channel on which every instance hears which cache tags a committed write touched. */
export const INVALIDATION_CHANNEL = 'read_cache_invalidation';

/** NOTIFY payloads stop at 8,000 bytes; a write touching more tags than fit clears every cache instead. */
const MAX_PAYLOAD = 7_000;

/**
 * Tells every instance, through NOTIFY on the writing transaction (delivered only if it commits), to drop entries
 * carrying `tags`. Ids only: payloads carry no personal data.
 */
export const announceInvalidation = async (db: Queryable, tags: readonly CacheTag[]): Promise<void> => {
  if (tags.length === 0) return;
  const payload = JSON.stringify(tags);
  await db.query('select pg_notify($1, $2)', [INVALIDATION_CHANNEL, payload.length > MAX_PAYLOAD ? '["*"]' : payload]);
};

/**
 * Runs `work` in one transaction and drops the entries of the tags it names: on this instance once the transaction
 * has ended (before the caller gets an answer), on the others through NOTIFY when it commits.
 */
export const transactionInvalidating = async <T>(
  db: Db,
  cache: ReadCache,
  work: (tx: Queryable, touches: (...tags: CacheTag[]) => void) => Promise<T>,
): Promise<T> => {
  const tags: CacheTag[] = [];
  try {
    return await db.transaction(async (tx) => {
      const result = await work(tx, (...touched) => tags.push(...touched));
      await announceInvalidation(tx, tags);
      return result;
    });
  } finally {
    // Also after a rollback: dropping an entry is always safe, keeping one a failed write may have read is not.
    cache.invalidate(tags);
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
