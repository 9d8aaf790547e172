import pg from 'pg';
import type { Db, Queryable } from './db.ts';

// Dates stay 'YYYY-MM-DD' text and bigints stay exact, as PGlite returns them.
pg.types.setTypeParser(1082, (value) => value);
pg.types.setTypeParser(20, (value) => value);

export interface PostgresOptions {
  connectionString: string;
  /** Puts every table in this schema (tests use one schema per test file). */
  schema?: string;
  max?: number;
}

export const openPostgres = async ({ connectionString, schema, max = 10 }: PostgresOptions): Promise<Db> => {
  const pool = new pg.Pool({
    connectionString,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client's network error must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  if (schema) await pool.query(`create schema if not exists ${schema}`);
  const run: Queryable['query'] = async (sql, params = []) => {
    const result = await pool.query(sql, params);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  };
  return {
    kind: 'postgres',
    query: run,
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({
          query: async (sql, params = []) => {
            const r = await client.query(sql, params);
            return { rows: r.rows, rowCount: r.rowCount ?? 0 };
          },
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      // LISTEN needs a session of its own; a pooled connection would be handed to other queries.
      const client = new pg.Client({ connectionString });
      client.on('error', () => {});
      client.on('notification', () => onNotify());
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return () => client.end().catch(() => {});
    },
    close: () => pool.end(),
  };
};
