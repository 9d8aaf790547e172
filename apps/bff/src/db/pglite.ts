import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.ts';

const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
  async exec(sql: string) {
    await target.exec(sql);
  },
  async query<T>(sql: string, params: unknown[] = []) {
    const result = await target.query<T>(sql, params);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  },
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * PGlite is one session that runs one statement at a time, synchronously, on this thread. Every statement and every
 * transaction waits here, first come first served, and each starts on an event-loop turn of its own. Without that
 * turn a request ran start to finish inside the callback that read it (PGlite answers through promises alone), so
 * one turn of the loop served every socket that had a request, 100+ ms at 64 connections; and as Node accepts one
 * new connection per turn, the last of 64 connections waited seconds for its first answer and clients timed out.
 * Now a turn runs one statement: between statements the server accepts, reads new requests (which queue behind the
 * ones already waiting, in arrival order) and writes answers.
 */
const fifo = () => {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(job: () => Promise<T>): Promise<T> => {
    const run = tail.then(nextTurn).then(job);
    tail = run.catch(() => {});
    return run;
  };
};

/** The embedded database: in memory when `dataDir` is undefined, else files in that folder. */
export const openPglite = async (dataDir?: string, existing?: PGlite): Promise<Db> => {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = existing ?? (await PGlite.create(dataDir ? { dataDir } : {}));
  const base = wrap(pg);
  const queue = fifo();
  return {
    kind: 'pglite',
    query: (sql, params) => queue(() => base.query(sql, params)),
    exec: (sql) => queue(() => base.exec(sql)),
    // A transaction holds the queue until it commits or rolls back, so a plain query issued meanwhile waits for
    // it instead of running inside it (where it would see uncommitted writes and, by failing, abort it). Hence:
    // inside `work`, use `tx`, never this Db, or the query waits for its own transaction forever.
    transaction: (work) =>
      queue(async () => {
        const committed: (() => void)[] = [];
        const result = await pg.transaction((tx) => work({ ...wrap(tx), afterCommit: (callback) => committed.push(callback) }));
        for (const callback of committed) callback();
        return result;
      }),
    // One in-process session: a listener cannot drop separately from the database itself.
    listen: async (channel, onNotify) => pg.listen(channel, (payload) => onNotify(payload)),
    close: async () => {
      await queue(async () => {});
      if (!existing) await pg.close();
    },
  };
};
