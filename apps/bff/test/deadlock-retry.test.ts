import { describe, expect, it } from 'vitest';
import type { Db, Queryable } from '../src/db/db.ts';
import { withDeadlockRetry } from '../src/db/deadlock-retry.ts';

/** A database whose transactions fail with the given errors, in turn, then run their work. */
const failingWith = (...errors: unknown[]) => {
  const runs = { count: 0 };
  const db = {
    transaction: async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
      const error = errors[runs.count++];
      if (error) throw error;
      return work({} as Queryable);
    },
  } as unknown as Db;
  return { db, runs };
};

describe('withDeadlockRetry', () => {
  it('runs a transaction that lost a deadlock or a serialization failure again', async () => {
    const { db, runs } = failingWith({ code: '40P01' }, { code: '40001' });
    await expect(withDeadlockRetry(db, async () => 'done')).resolves.toBe('done');
    expect(runs.count).toBe(3);
  });

  it('gives up after three runs, with the conflict itself', async () => {
    const { db, runs } = failingWith({ code: '40P01' }, { code: '40P01' }, { code: '40P01' }, undefined);
    await expect(withDeadlockRetry(db, async () => 'done')).rejects.toEqual({ code: '40P01' });
    expect(runs.count).toBe(3);
  });

  it('never runs again after any other failure', async () => {
    const { db, runs } = failingWith({ code: '23505' });
    await expect(withDeadlockRetry(db, async () => 'done')).rejects.toEqual({ code: '23505' });
    expect(runs.count).toBe(1);
  });
});
