/**
 * bench:api's API, in a process of its own: the real app, run built as `pnpm start` runs it (the coordinator bundles
 * this file with apps/bff/scripts/build.ts and forks the bundle with plain node), on in-memory PGlite or a throwaway
 * PostgreSQL schema, seeded through HTTP with what the measured routes read: a client and its token, one verified
 * user, and a pool of that user's unread alerts for the mixed load to mark read.
 * Env: BENCH_ROLE (`all`, the start command's single process, which chains the audit spool itself; `api`, PostgreSQL
 * only: a split deployment, whose worker, a process of its own on BENCH_CHAIN_WORKER_CPU, chains it), BENCH_AUDIT=0
 * (reads are not recorded in the audit trail: what recording costs, by difference).
 * IPC out: ApiReady once seeded; in: 'usage' (answers this process's CPU µs and read-cache loads so far), 'stop'.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../apps/bff/src/app.ts';
import { buildContext } from '../../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../../apps/bff/src/config.ts';
import { openPostgres } from '../../apps/bff/src/db/postgres.ts';
import { systemClock } from '../../apps/bff/src/lib/clock.ts';
import { createLogger, openLogDestination } from '../../apps/bff/src/logger.ts';
import { AuditChainer } from '../../apps/bff/src/modules/audit/chainer.ts';
import { listen } from '../../apps/bff/src/server.ts';
import { benchClient, enrolment, MIX_ALERTS, openBenchDb, pin } from '../common.ts';

export interface ApiReady {
  url: string;
  authorization: string;
  userId: string;
  db: string;
  role: string;
}

const config = loadConfig({
  ...process.env,
  ROLE: process.env.BENCH_ROLE ?? 'all',
  // Access logs are part of what a request costs; stdout goes to /dev/null.
  LOG_LEVEL: 'info',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: '/nonexistent',
});

/** BENCH_ROLE=api: a split deployment's worker, chaining the spooled entries over the API's schema until it goes. */
const runChainWorker = async () => {
  const db = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: process.env.BENCH_SCHEMA });
  process.once('disconnect', () => void db.close().finally(() => process.exit(0)));
  new AuditChainer({ db, clock: systemClock }, config.AUDIT_CHAIN_INTERVAL_MS).everyInterval();
  setInterval(() => {}, 60_000);
};

const call = async (url: string, init: RequestInit, expected: number): Promise<{ data: Record<string, any> }> => {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
};

const main = async () => {
  const db = await openBenchDb();
  const ctx = await buildContext({ config, db, logger: createLogger(config.LOG_LEVEL, openLogDestination()) });
  if (process.env.BENCH_AUDIT === '0') ctx.audit = undefined;
  const api = await listen(createApp(ctx), config);
  config.PUBLIC_URL ??= api.url;
  let worker: ChildProcess | undefined;
  if (config.ROLE === 'api') {
    if (!db.schema) throw new Error('BENCH_ROLE=api needs DATABASE_URL (PostgreSQL): the worker shares its schema');
    worker = fork(fileURLToPath(import.meta.url), {
      env: { ...process.env, BENCH_CHAIN_WORKER: '1', BENCH_SCHEMA: db.schema },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    pin(worker.pid, Number(process.env.BENCH_CHAIN_WORKER_CPU ?? 1));
  }

  const { token } = await benchClient(db, api.url);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown, expected: number) =>
    call(`${api.url}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) }, expected);
  const { userId } = (await post('/v1/users/enroll', enrolment(`bench-${randomBytes(4).toString('hex')}`), 201)).data;
  // Credit routes need an active user: identity verification passed with the sandbox's answer key.
  const { sessionId } = (await call(`${api.url}/v1/users/${userId}/verification/questions`, { headers: auth }, 200)).data;
  const key = `${api.url}/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`;
  const { answers } = (await call(key, { headers: auth }, 200)).data;
  await post(`/v1/users/${userId}/verification/answers`, { sessionId, answers }, 200);
  const { alertId } = (await post(`/v1/sandbox/users/${userId}/alerts`, { type: 'new_inquiry' }, 201)).data;
  await db.query(
    `insert into alerts (id, user_id, client_id, type, title, message, severity, status, data, created_at, read_at)
     select 'alt_mix' || n, user_id, client_id, type, title, message, severity, 'unread', data, created_at, null
     from alerts, generate_series(1, $2::int) n where id = $1`,
    [alertId, MIX_ALERTS],
  );

  process.on('message', async (message) => {
    if (message === 'usage') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuUs: user + system, cacheLoads: ctx.readCache.loads });
    } else if (message === 'stop') {
      // The worker goes first: the schema it works in is dropped next.
      const workerGone = worker && new Promise((resolve) => worker?.once('exit', resolve));
      worker?.disconnect();
      await workerGone;
      await api.close();
      await db.close();
      process.exit(0);
    }
  });
  const ready: ApiReady = { url: api.url, authorization: auth.authorization, userId, db: db.kind, role: config.ROLE };
  process.send?.(ready);
};

(process.env.BENCH_CHAIN_WORKER === '1' ? runChainWorker() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
