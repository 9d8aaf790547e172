import pg from 'pg';
import type { Db, Queryable } from './db.ts';
import { isStalePreparedStatement, statementFor } from './prepared-statements.ts';

// Dates stay 'YYYY-MM-DD' text and bigints stay exact, as PGlite returns them.
pg.types.setTypeParser(1082, (value) => value);
pg.types.setTypeParser(20, (value) => value);

export interface PostgresOptions {
  connectionString: string;
  /** Puts every table in this schema (tests use one schema per test file). */
  schema?: string;
  max?: number;
}

interface Listener {
  /** Resolves once the first LISTEN is in place; rejects when that first connection fails. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const RECONNECT_DELAY_MS = 500;

/**
 * LISTEN needs a session of its own (a pooled connection would be handed to other queries). When that session drops,
 * the listener says so, reconnects every RECONNECT_DELAY_MS and says when notifications arrive again.
 */
const listenWithReconnect = (options: {
  connectionString: string;
  channel: string;
  onNotify: (payload: string) => void;
  onConnection?: (connected: boolean) => void;
}): Listener => {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const reconnectLater = () => {
    if (stopped) return;
    retry = setTimeout(() => {
      connect().then(() => options.onConnection?.(true), reconnectLater);
    }, RECONNECT_DELAY_MS);
    retry.unref();
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: options.connectionString });
    current = client;
    let lost = false;
    const onLost = () => {
      if (lost || stopped) return;
      lost = true;
      options.onConnection?.(false);
      client.end().catch(() => {});
      reconnectLater();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => options.onNotify(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(options.channel)}`);
    } catch (error) {
      lost = true;
      client.end().catch(() => {});
      throw error;
    }
  };
  return {
    ready: connect(),
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await current?.end().catch(() => {});
    },
  };
};

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
    const statement = statementFor(sql, params);
    if (typeof statement === 'string') {
      const result = await pool.query(statement);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    }
    for (let attempt = 1; ; attempt++) {
      const client = await pool.connect();
      try {
        const result = await client.query(statement);
        client.release();
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      } catch (error) {
        // A stale plan: drop this connection (and its prepared statements) and run once more on a fresh one.
        const stale = isStalePreparedStatement(error);
        client.release(stale);
        if (!stale || attempt > 1) throw error;
      }
    }
  };
  const listeners = new Set<Listener>();
  return {
    kind: 'postgres',
    query: run,
    exec: async (sql) => {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      let discard = false;
      const committed: (() => void)[] = [];
      try {
        await client.query('begin');
        const result = await work({
          afterCommit: (callback) => committed.push(callback),
          query: async (sql, params = []) => {
            const statement = statementFor(sql, params);
            try {
              const r = typeof statement === 'string' ? await client.query(statement) : await client.query(statement);
              return { rows: r.rows, rowCount: r.rowCount ?? 0 };
            } catch (error) {
              // The transaction is lost either way; a stale plan must not outlive this connection.
              if (isStalePreparedStatement(error)) discard = true;
              throw error;
            }
          },
          exec: async (sql) => {
            await client.query(sql);
          },
        });
        await client.query('commit');
        for (const callback of committed) callback();
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release(discard);
      }
    },
    async listen(channel, onNotify, onConnection) {
      const listener = listenWithReconnect({ connectionString, channel, onNotify, onConnection });
      listeners.add(listener);
      await listener.ready;
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((listener) => listener.stop()));
      await pool.end();
    },
  };
};
