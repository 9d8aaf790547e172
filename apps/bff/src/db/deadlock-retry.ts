import type { Db, Queryable } from './db.ts';

/** PostgreSQL's deadlock_detected and serialization_failure: the transaction lost to another and may simply run again. */
export const isTransactionConflict = (error: unknown): boolean => {
  const code = (error as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
};

/** Runs in all, the first included: a conflict that comes back three times is a bug to see, not to hide. */
const ATTEMPTS = 3;

/**
 * `work` in one transaction, run again (up to three times in all, after a short random pause) when PostgreSQL aborted
 * it as a deadlock's victim or a serialization failure: nothing of a rolled-back attempt was written, and the other
 * transaction has finished by the time the database reports the conflict. Lock order is what prevents deadlocks; this
 * keeps one that slips through (a cascade, a future query) from reaching a caller as a 500.
 */
export const withDeadlockRetry = async <T>(db: Db, work: (tx: Queryable) => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= ATTEMPTS) throw error;
      // Apart a little, so two retried victims do not meet again in the same order.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
};
