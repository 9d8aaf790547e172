import pg from 'pg';

/**
 * Vitest setup file (vitest.config.ts). Test files run side by side, one per worker process. On PostgreSQL each file
 * already keeps its tables in schemas of its own, but some things are per database, not per schema: NOTIFY channels
 * (cache invalidations, outbox wake-ups), advisory locks (the audit chainer) and what a test finds in
 * `pg_stat_activity`. So each worker gets a database of its own: worker 1 the one DATABASE_URL names, worker N the
 * same name with `_wN` (created on first use, kept for the next run), and DATABASE_URL is rewritten before any test
 * module reads it. Files within one worker run one after another, as the whole suite did before. Without
 * DATABASE_URL (PGlite) this does nothing: every PGlite is private to its test already.
 */
const GIVEN = 'CREDIT_TEST_GIVEN_DATABASE_URL';

const given = process.env[GIVEN] ?? process.env.DATABASE_URL;
const worker = Number(process.env.VITEST_POOL_ID ?? '1');
if (given && worker > 1) {
  process.env[GIVEN] = given;
  const url = new URL(given);
  const name = `${decodeURIComponent(url.pathname.slice(1)) || 'postgres'}_w${worker}`;
  if (!(globalThis as { creditWorkerDatabase?: string }).creditWorkerDatabase) {
    const admin = new pg.Client({ connectionString: given });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) {
        // 42P04: another run made it meanwhile; 23505: two creations raced on the catalogue.
        await admin.query(`create database ${pg.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
          if (error.code !== '42P04' && error.code !== '23505') throw error;
        });
      }
    } finally {
      await admin.end();
    }
    (globalThis as { creditWorkerDatabase?: string }).creditWorkerDatabase = name;
  }
  url.pathname = `/${encodeURIComponent(name)}`;
  process.env.DATABASE_URL = url.toString();
}
