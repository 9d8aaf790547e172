import type { Db, Queryable } from './db.ts';

/**
 * Runs `work` in one read-only transaction that sees a single snapshot of the database (REPEATABLE READ): rows other
 * transactions commit meanwhile, appended or deleted, stay invisible to every statement of `work`. It takes no locks
 * that writers wait for on PostgreSQL; on PGlite, one session, every other statement waits until it ends.
 */
export const inReadOnlySnapshot = <T>(db: Db, work: (tx: Queryable) => Promise<T>): Promise<T> =>
  db.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read, read only');
    return work(tx);
  });
