import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/db.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';

/** The database tests run on: PostgreSQL when DATABASE_URL is set (a private schema per call), else in-memory PGlite. */
export const usingPostgres = Boolean(process.env.DATABASE_URL);

export const openTestDb = async (): Promise<Db & { schema?: string }> => {
  if (!process.env.DATABASE_URL) return openPglite();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: process.env.DATABASE_URL, schema, max: 5 });
  return {
    ...db,
    schema,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};
