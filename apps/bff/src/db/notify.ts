import type { Queryable } from './db.ts';

/** NOTIFY `channel` with `payload`: listeners hear it once the transaction of `db` commits (at once outside one). */
export const notify = async (db: Queryable, channel: string, payload: string): Promise<void> => {
  await db.query('select pg_notify($1, $2)', [channel, payload]);
};
