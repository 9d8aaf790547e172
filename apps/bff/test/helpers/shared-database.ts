import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Db } from '../../src/db/db.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { usingPostgres } from './test-db.ts';

export interface SharedDatabase {
  /** What a server process needs to open it (DATABASE_URL with the schema, or DATA_DIR). */
  env: Record<string, string>;
  /** Opens it in this process. PGlite: only while no server process has it open. */
  open(): Promise<Db>;
  drop(): Promise<void>;
}

/** A database server processes share: a fresh PostgreSQL schema, or a PGlite folder (one process at a time). */
export const sharedDatabase = async (name: string): Promise<SharedDatabase> => {
  if (!usingPostgres) {
    const dir = mkdtempSync(path.join(tmpdir(), `credit-${name}-`));
    // main.ts keeps PGlite's files in DATA_DIR/pgdata (db/open.ts).
    return { env: { DATA_DIR: dir }, open: () => openPglite(path.join(dir, 'pgdata')), drop: async () => {} };
  }
  const schema = `${name}_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const url = new URL(process.env.DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres({ connectionString: process.env.DATABASE_URL as string, schema, max: 5 }),
    drop: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
};
