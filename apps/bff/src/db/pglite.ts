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

/** The embedded database: in memory when `dataDir` is undefined, else files in that folder. */
export const openPglite = async (dataDir?: string, existing?: PGlite): Promise<Db> => {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = existing ?? (await PGlite.create(dataDir ? { dataDir } : {}));
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    // PGlite runs one transaction at a time and makes other queries wait for it.
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    listen: async (channel, onNotify) => pg.listen(channel, () => onNotify()),
    close: async () => {
      if (!existing) await pg.close();
    },
  };
};
