import { randomBytes } from 'node:crypto';
import { writeTransaction } from '../../src/cache/invalidation.ts';
import { type ReadCache, userTag } from '../../src/cache/read-cache.ts';
import type { Db } from '../../src/db/db.ts';

/** How long a NOTIFY may take to come back before the wait fails (README: a few milliseconds in practice). */
const BOUND_MS = 5_000;

/**
 * Resolves once `cache` has received every invalidation committed on `db` so far. NOTIFYs arrive in commit order, so
 * it caches a marker entry, commits an invalidation of the marker's tag through the production write path (with no
 * local cache, as another process would), and waits until the marker entry is gone. Uses only the cache's public
 * read path: the production class keeps no waiting hooks for tests.
 */
export const invalidationsArrived = async (db: Db, cache: ReadCache): Promise<void> => {
  const marker = userTag(`marker-${randomBytes(6).toString('hex')}`);
  let loads = 0;
  const readMarker = () =>
    cache.read(
      `test-marker:${marker}`,
      async () => ++loads,
      () => [marker],
    );
  await readMarker();
  await writeTransaction(db, undefined, async (tx) => tx.touches(marker));
  const started = performance.now();
  for (;;) {
    const before = loads;
    await readMarker();
    // Loaded again: the marker's entry was dropped (or the cache stores nothing at all, listener down or TTL 0).
    if (loads > before) return;
    if (performance.now() - started > BOUND_MS) throw new Error(`no invalidation arrived within ${BOUND_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};
