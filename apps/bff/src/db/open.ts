import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Another live process holds the embedded database: callers that have another way in (the CLI's `--api`) say so. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${pid}. Stop it first, or set DATABASE_URL to share PostgreSQL between processes.`,
    );
  }
}

/**
 * PGlite's files belong to one process. A lock file turns a second opener (another instance, or
 * the CLI while the server runs) into a clear message instead of a corrupted database.
 */
const lockDataDir = (dataDir: string): (() => void) => {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'pglite.lock');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && isRunning(pid)) {
      throw new EmbeddedDatabaseInUseError(dataDir, pid);
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
};

/** Where the embedded database keeps its files. */
export const embeddedDatabaseDir = (config: Config): string => path.join(config.DATA_DIR, 'pgdata');

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR/pgdata. */
export const openDatabase = async (config: Config): Promise<Db> => {
  if (config.DATABASE_URL) return openPostgres({ connectionString: config.DATABASE_URL });
  const unlock = lockDataDir(config.DATA_DIR);
  const db = await openPglite(embeddedDatabaseDir(config));
  return {
    ...db,
    close: async () => {
      await db.close();
      unlock();
    },
  };
};
