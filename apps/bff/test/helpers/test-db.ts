import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { Db } from '../../src/db/db.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
// For its `ProvidedContext` augmentation (the snapshot's path), in every program that compiles these helpers (e2e too).
import type {} from './global-setup.ts';
import { openMigratedPgliteSnapshot } from './pglite-snapshot.ts';

/** The database tests run on: PostgreSQL when DATABASE_URL is set (a private schema per call), else in-memory PGlite. */
export const usingPostgres = Boolean(process.env.DATABASE_URL);

/** A fresh, empty database (no migrations applied). */
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

/**
 * A fresh database that may already have every migration applied (the app's start migrates it anyway): on PGlite a
 * copy of the run's migrated snapshot (global-setup.ts), four times cheaper than initdb; otherwise `openTestDb()`.
 */
export const openMigratedTestDb = async (): Promise<Db & { schema?: string }> => {
  const snapshot = !process.env.DATABASE_URL && inject('pgliteSnapshot');
  return snapshot ? openMigratedPgliteSnapshot(snapshot) : openTestDb();
};
