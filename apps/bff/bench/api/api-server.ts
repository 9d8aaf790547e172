/**
 * The API under test, in a process of its own so that neither the load generator nor the coordinator takes its CPU.
 * Opens the database (in-memory PGlite, or PostgreSQL in a throwaway schema when DATABASE_URL is set), serves the
 * real app (api role only: no webhook worker), then seeds through HTTP what the measured routes need: a client,
 * its access token, one enrolled, verified user and a pool of unread alerts of theirs (the mixed load marks them read).
 *
 * With BENCH_API_PROCESSES=N (N > 1, PostgreSQL only) this process is the primary of N API processes on one port
 * (node:cluster, as API_PROCESSES does in the start command): it migrates and seeds, they serve.
 *
 * Env: DATABASE_URL, BENCH_API_PROCESSES (1), BENCH_LOG_LEVEL (info), RATE_LIMIT_* (the coordinator raises them),
 * BENCH_AUDIT=0 (reads are not recorded in the audit trail: what the audit hook costs, by difference) or `unheld`
 * (recorded, but answered before the entry commits: a diagnostic), BENCH_MIX_HANDLER=baseline (the mix's writes
 * answered by the Express baseline's handlers in this process), BENCH_ROLE
 * (`all`, the default: this process also chains the spooled read entries, as the start command's single process does;
 * `api`, PostgreSQL only: a split deployment, where a worker process of its own, forked here and pinned to
 * BENCH_CHAIN_WORKER_CPU when the coordinator pins, chains them).
 * Run built, as `pnpm start` runs the API: the coordinator bundles this file with scripts/build.ts
 * (`bundleBenchServer`, into apps/bff/dist-bench/) and forks the bundle with plain node, so what it measures is the
 * shipped build's code (no tsx loader, no keepNames `__name` wrappers). The chain worker and API processes forked
 * from here run the same bundle (import.meta.url, process.argv[1]).
 * IPC out: { url, authorization, userId, neighbourId, consentBody, db, processes } once ready.
 * IPC in: 'cpu' (answers { cpuUs, cacheLoads }, this process's CPU time and its read cache's loads so far), 'stop'
 * (drops the schema, closes, exits).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { z } from 'zod';
import { forkApiProcesses, reportListening } from '../../src/api-processes.ts';
import { createApp } from '../../src/app.ts';
import { buildContext } from '../../src/bootstrap.ts';
import type { ReadCache } from '../../src/cache/read-cache.ts';
import type { Config } from '../../src/config.ts';
import { loadConfig } from '../../src/config.ts';
import type { AuditTrail } from '../../src/core/audit-trail.ts';
import type { Db } from '../../src/db/db.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import type { RequestListener } from '../../src/http/front-door.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createLogger, openLogDestination } from '../../src/logger.ts';
import { AuditChainer } from '../../src/modules/audit/chainer.ts';
import { createClient } from '../../src/modules/clients/service.ts';
import { listen, type RunningServer } from '../../src/server.ts';
import { serveWrites } from './baseline-writes.ts';
import { gcTotals } from './gc-meter.ts';
import { MIX_ALERT_POOL, mixAlertIdSql } from './mix-alerts.ts';

const SECRET = 'sk_bench_secret_0123456789abcdefghijklmnop';
const PROCESSES = Number(process.env.BENCH_API_PROCESSES ?? '1');

/** In-memory PGlite, or PostgreSQL in a fresh schema (BENCH_SCHEMA, for the API processes) that `close()` drops. */
const openBenchDb = async (): Promise<Db> => {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  process.env.BENCH_SCHEMA = schema;
  const db = await openPostgres({ connectionString: url, schema });
  return {
    ...db,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

/**
 * BENCH_AUDIT=0: without the dispatcher's audit hook (ctx.audit), to measure what recording reads costs.
 * BENCH_AUDIT=unheld (a diagnostic, not something the product may do): reads are still spooled, but answered without
 * waiting for their entry's commit, which is what tells the group commit's holding of answers from its work.
 */
const withoutAuditWhenAsked = <T extends { audit?: AuditTrail }>(ctx: T): T => {
  if (process.env.BENCH_AUDIT === '0') ctx.audit = undefined;
  const audit = ctx.audit;
  if (process.env.BENCH_AUDIT === 'unheld' && audit) {
    ctx.audit = {
      ...audit,
      recordOperation: (...args) => {
        audit.recordOperation(...args).catch((error: unknown) => console.error(error));
        return Promise.resolve();
      },
    };
  }
  return ctx;
};

/**
 * BENCH_MIX_HANDLER=baseline: once seeded, the mixed load's writes are answered in this process by the Express
 * baseline's own handlers (baseline-writes.ts: one statement each, on a pg pool and schema of their own) instead of
 * the API's write routes; reads go through the API as always. What the API's reads keep then is what any write that
 * reaches the database costs them, whatever its code.
 */
const MIX_WRITE = /^\/v1\/users\/(enroll$|[^/]+\/(alerts\/[^/]+|consent)$)/;
const withBaselineWrites = (listener: RequestListener) => {
  if (process.env.BENCH_MIX_HANDLER !== 'baseline') return { listener, start: async () => async () => {} };
  if (!process.env.DATABASE_URL) throw new Error('BENCH_MIX_HANDLER=baseline needs DATABASE_URL (PostgreSQL)');
  let writes: express.Express | undefined;
  const start = async () => {
    const app = express();
    app.set('etag', false);
    app.set('x-powered-by', false);
    const close = await serveWrites(app, process.env.DATABASE_URL as string, () => {});
    writes = app;
    return close;
  };
  const wrapped: RequestListener = (req, res) => {
    if (writes && req.method !== 'GET' && MIX_WRITE.test(req.url ?? '')) writes(req, res);
    else listener(req, res);
  };
  return { listener: wrapped, start };
};

const benchConfig = (): Config =>
  // LOG_LEVEL=info by default: access logs are part of what a request costs (stdout goes to /dev/null).
  loadConfig({
    ...process.env,
    ROLE: process.env.BENCH_ROLE ?? 'all',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: '/nonexistent',
  });

/** One of BENCH_API_PROCESSES: the app on the shared port, over the primary's schema. */
const runApiProcess = async () => {
  const config = benchConfig();
  const db = await openPostgres({ connectionString: config.DATABASE_URL as string, schema: process.env.BENCH_SCHEMA });
  const ctx = withoutAuditWhenAsked(
    await buildContext({ config, db, logger: createLogger(config.LOG_LEVEL, openLogDestination()) }),
  );
  const server = await listen(createApp(ctx), config);
  reportListening(server.url);
  process.once('SIGTERM', async () => {
    await server.close();
    await db.close();
    process.exit(0);
  });
};

/**
 * BENCH_ROLE=api: the worker of a split deployment, in a process of its own over the API's schema, chaining the
 * spooled read entries every AUDIT_CHAIN_INTERVAL_MS as a worker does (modules/audit/chainer.ts).
 */
const runChainWorker = async () => {
  // Gone with the API process, whenever that happens (even while this one is still opening its pool).
  let db: Db | undefined;
  process.once('disconnect', () => {
    void (db?.close() ?? Promise.resolve()).finally(() => process.exit(0));
  });
  const config = benchConfig();
  db = await openPostgres({ connectionString: config.DATABASE_URL as string, schema: process.env.BENCH_SCHEMA });
  if (!process.connected) {
    await db.close();
    process.exit(0);
  }
  new AuditChainer({ db }, config.AUDIT_CHAIN_INTERVAL_MS).everyInterval();
  // Keeps the process alive (the chainer's timer does not) until the API process goes away.
  setInterval(() => {}, 60_000);
};

/** Stops the chain worker and waits for it (at most 5 s, then kills it), so it is gone before the schema is dropped. */
const stopChainWorker = async (worker: ChildProcess | undefined): Promise<void> => {
  if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  if (worker.connected) worker.disconnect();
  const timer = setTimeout(() => worker.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
};

/** The worker process of BENCH_ROLE=api, or nothing for the default single process. */
const startChainWorker = (config: Config, db: Db): ChildProcess | undefined => {
  if (config.ROLE !== 'api') return undefined;
  if (db.kind !== 'postgres') throw new Error('BENCH_ROLE=api needs DATABASE_URL (PostgreSQL): the worker shares its schema');
  const worker = fork(fileURLToPath(import.meta.url), {
    env: { ...process.env, BENCH_CHAIN_WORKER: '1' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // A split deployment's worker does not run on the API's CPU: the coordinator names another one (its generators').
  const cpu = process.env.BENCH_CHAIN_WORKER_CPU;
  if (cpu && worker.pid) execFileSync('taskset', ['-a', '-p', '-c', cpu, String(worker.pid)], { stdio: 'ignore' });
  return worker;
};

/**
 * The app in this process, or (BENCH_API_PROCESSES > 1) in that many API processes forked from it; with the read
 * cache of the one in this process (its loads are reported to the coordinator).
 */
const serve = async (
  config: Config,
  db: Db,
): Promise<{ server: RunningServer; readCache?: ReadCache; startBaselineWrites?: () => Promise<() => Promise<void>> }> => {
  const logger = createLogger(config.LOG_LEVEL, openLogDestination());
  const ctx = withoutAuditWhenAsked(await buildContext({ config, db, logger }));
  if (PROCESSES === 1) {
    const { listener, start } = withBaselineWrites(createApp(ctx));
    return { server: await listen(listener, config), readCache: ctx.readCache, startBaselineWrites: start };
  }
  if (process.env.BENCH_MIX_HANDLER) throw new Error('BENCH_MIX_HANDLER needs BENCH_API_PROCESSES=1');
  if (db.kind !== 'postgres') throw new Error('BENCH_API_PROCESSES above 1 needs DATABASE_URL (PostgreSQL)');
  return { server: await forkApiProcesses(PROCESSES, logger) };
};

const call = async (url: string, init: RequestInit, expected: number): Promise<unknown> => {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
};

/** Credit routes need an `active` user: pass identity verification with the sandbox's answer key. */
const verifyWithSandboxAnswers = async (base: string, auth: Record<string, string>, userId: string) => {
  const questions = await call(`${base}/v1/users/${userId}/verification/questions`, { headers: auth }, 200);
  const { sessionId } = z.object({ data: z.object({ sessionId: z.string() }) }).parse(questions).data;
  const keyUrl = `${base}/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`;
  const { answers } = z
    .object({ data: z.object({ answers: z.array(z.unknown()) }) })
    .parse(await call(keyUrl, { headers: auth }, 200)).data;
  const init = {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId, answers }),
  };
  await call(`${base}/v1/users/${userId}/verification/answers`, init, 200);
};

/** What the measured load needs, made through HTTP: a client and its token, a verified user, alerts, a neighbour. */
const seed = async (config: Config, db: Db, api: RunningServer) => {
  const bank = { name: 'Bench bank', contactEmail: 'ops@bank.test', secret: SECRET };
  const { client } = await createClient(db, systemClock, config.APP_ENV, bank);
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET });
  const tokenBody = await call(`${api.url}/oauth/token`, { method: 'POST', body: form }, 200);
  const token = z.object({ access_token: z.string() }).parse(tokenBody).access_token;
  const auth = { authorization: `Bearer ${token}` };
  const enrollment = {
    externalUserId: `bench-${randomBytes(4).toString('hex')}`,
    email: 'bench@example.test',
    firstName: 'Jane',
    lastName: 'Doe',
    ssn: '1234',
    dateOfBirth: '1985-04-12',
    address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  };
  const enrollInit = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } };
  const enrolled = await call(`${api.url}/v1/users/enroll`, { ...enrollInit, body: JSON.stringify(enrollment) }, 201);
  const { userId } = z.object({ data: z.object({ userId: z.string() }) }).parse(enrolled).data;
  await verifyWithSandboxAnswers(api.url, auth, userId);
  // A second user, never read by the load: BENCH_MIX_WRITE=consent renews their consent, a write that names a cache
  // tag (user:<neighbour>) and must leave the first user's cached entries alone.
  const neighbourBody = JSON.stringify({ ...enrollment, externalUserId: `${enrollment.externalUserId}-neighbour` });
  const neighbour = await call(`${api.url}/v1/users/enroll`, { ...enrollInit, body: neighbourBody }, 201);
  const neighbourId = z.object({ data: z.object({ userId: z.string() }) }).parse(neighbour).data.userId;
  const consentBody = JSON.stringify({ termsVersion: config.CONSENT_TERMS_VERSION, method: 'partner_attested' });
  await call(`${api.url}/v1/users/${neighbourId}/consent`, { ...enrollInit, body: consentBody }, 201);
  const alertInit = { ...enrollInit, body: JSON.stringify({ type: 'new_inquiry' }) };
  const alert = await call(`${api.url}/v1/sandbox/users/${userId}/alerts`, alertInit, 201);
  const { alertId } = z.object({ data: z.object({ alertId: z.string() }) }).parse(alert).data;
  // The pool the mixed load marks read (mix-alerts.ts): copies of that alert, unread.
  await db.query(
    `insert into alerts (id, user_id, client_id, type, title, message, severity, status, data, created_at, read_at)
     select ${mixAlertIdSql('n')}, user_id, client_id, type, title, message, severity, 'unread', data, created_at, null
     from alerts, generate_series(1, $2::int) n where id = $1`,
    [alertId, MIX_ALERT_POOL],
  );
  return { authorization: auth.authorization, userId, neighbourId, consentBody };
};

const main = async () => {
  if (!Number.isInteger(PROCESSES) || PROCESSES < 1) throw new Error('BENCH_API_PROCESSES must be a positive whole number');
  const config = benchConfig();
  const db = await openBenchDb();
  let api: RunningServer | undefined;
  let chainWorker: ChildProcess | undefined;
  let closeBaselineWrites = async () => {};
  const stop = async () => {
    try {
      await closeBaselineWrites();
      await stopChainWorker(chainWorker);
      await api?.close();
    } finally {
      await db.close(); // drops the schema
    }
  };
  let readCache: ReadCache | undefined;
  let seeded: Awaited<ReturnType<typeof seed>>;
  try {
    const served = await serve(config, db);
    api = served.server;
    readCache = served.readCache;
    chainWorker = startChainWorker(config, db);
    config.PUBLIC_URL ??= api.url;
    seeded = await seed(config, db, api);
    if (served.startBaselineWrites) closeBaselineWrites = await served.startBaselineWrites();
  } catch (error) {
    // A failed start leaves no schema behind in the shared database.
    await stop().catch(() => {});
    throw error;
  }
  const url = api.url;

  process.on('message', async (message) => {
    // The CPU time this process used so far (user + system, µs) and its read cache's loads: the coordinator takes the
    // differences over a run.
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuUs: user + system, cacheLoads: readCache?.loads, ...gcTotals() });
      return;
    }
    if (message !== 'stop') return;
    await stop();
    process.exit(0);
  });
  process.send?.({
    url,
    ...seeded,
    db: db.kind,
    processes: PROCESSES,
    role: config.ROLE,
  });
};

(process.env.BENCH_CHAIN_WORKER === '1' ? runChainWorker() : cluster.isWorker ? runApiProcess() : main()).catch(
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
