/**
 * Throughput and latency of the real API against a bare Node `http` server answering the same bytes from memory.
 * The gap between the two is what Express, the middleware, auth, rate limiting and the database cost per request.
 *
 *   pnpm bench:api                                   # in-memory PGlite, 10 connections, 10 s per target
 *   DATABASE_URL=postgres://… pnpm bench:api         # PostgreSQL, in a throwaway schema
 *   BENCH_DURATION=30 BENCH_CONNECTIONS=50 pnpm bench:api
 *
 * To measure another endpoint, add it to TARGETS (and a `bare: true` twin to compare it with a bare server).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { z } from 'zod';
import { createApp } from '../src/app.ts';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { listen } from '../src/server.ts';

interface Target {
  name: string;
  /** `{userId}` is replaced by the enrolled user's id. */
  path: string;
  /** Served by the bare server, with the body the API returned for the same path. */
  bare?: boolean;
}

const TARGETS: Target[] = [
  { name: 'API GET /v1/users/{id}', path: '/v1/users/{userId}' },
  { name: 'bare node http', path: '/v1/users/{userId}', bare: true },
  { name: 'API GET …/credit-score', path: '/v1/users/{userId}/credit-score' },
  { name: 'bare (credit-score body)', path: '/v1/users/{userId}/credit-score', bare: true },
  { name: 'API GET …/offers', path: '/v1/users/{userId}/offers' },
  { name: 'bare (offers body)', path: '/v1/users/{userId}/offers', bare: true },
];

interface Measurement {
  name: string;
  path: string;
  bare: boolean;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
};

const DURATION = envInt('BENCH_DURATION', 10);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = 2;
const SECRET = 'sk_bench_secret_0123456789abcdefghijklmnop';

/** In-memory PGlite, or PostgreSQL in a fresh schema that `close()` drops. */
const openBenchDb = async (): Promise<Db> => {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema });
  return {
    ...db,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

/** Serves fixed JSON bytes per path from memory: the floor any Node HTTP server pays. */
const startBareServer = (bodies: Map<string, Buffer>): Promise<{ url: string; close(): Promise<void> }> =>
  new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      const body = bodies.get(req.url ?? '');
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      const close = () =>
        new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ url: `http://127.0.0.1:${port}`, close });
    });
  });

type Run = Omit<Measurement, 'path' | 'bare'>;
const measure = async (name: string, url: string, headers: Record<string, string>, duration: number): Promise<Run> => {
  const { requests, latency, non2xx, errors } = await autocannon({ url, connections: CONNECTIONS, duration, headers });
  return { name, reqPerSec: requests.average, p50: latency.p50, p99: latency.p99, non2xx, errors };
};

const call = async (url: string, init: RequestInit, expected: number): Promise<Buffer> => {
  const res = await fetch(url, init);
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== expected) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${body.toString()}`);
  return body;
};
const json = (body: Buffer): unknown => JSON.parse(body.toString());

/** Credit routes need an `active` user: pass identity verification with the sandbox's answer key. */
const verifyWithSandboxAnswers = async (base: string, auth: Record<string, string>, userId: string) => {
  const questions = json(await call(`${base}/v1/users/${userId}/verification/questions`, { headers: auth }, 200));
  const { sessionId } = z.object({ data: z.object({ sessionId: z.string() }) }).parse(questions).data;
  const keyUrl = `${base}/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`;
  const { answers } = z
    .object({ data: z.object({ answers: z.array(z.unknown()) }) })
    .parse(json(await call(keyUrl, { headers: auth }, 200))).data;
  const init = {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ sessionId, answers }),
  };
  await call(`${base}/v1/users/${userId}/verification/answers`, init, 200);
};

const cell = (value: string, index: number) => (index === 0 ? value.padEnd(28) : value.padStart(10));
const row = (cells: string[]) => console.log(cells.map(cell).join(''));
const times = (x: number, y: number) => `${(x / y).toFixed(2)}x`;
/** autocannon truncates latency to whole ms, so a bare reading of 0 means < 1 ms and the ratio is at least API/1. */
const slower = (api: number, bare: number) => (bare > 0 ? times(api, bare) : `>= ${times(api, 1)} (bare < 1 ms)`);

const report = (results: Measurement[]) => {
  row(['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors']);
  for (const r of results) {
    row([r.name, r.reqPerSec.toFixed(0), r.p50.toFixed(0), r.p99.toFixed(0), String(r.non2xx), String(r.errors)]);
  }
  console.log('(latency in whole ms as autocannon records it, truncated: 0 means under 1 ms)');
  for (const b of results.filter((r) => r.bare)) {
    const a = results.find((r) => !r.bare && r.path === b.path);
    if (!a) continue;
    console.log(`\n${b.name} vs ${a.name}:`);
    console.log(`  req/s  bare/API  ${a.reqPerSec > 0 ? times(b.reqPerSec, a.reqPerSec) : 'n/a'}`);
    console.log(`  p50    API/bare  ${slower(a.p50, b.p50)}`);
    console.log(`  p99    API/bare  ${slower(a.p99, b.p99)}`);
  }
};

const main = async (): Promise<number> => {
  // A limit it never reaches: the limiter still runs on every request, as it does in production.
  const limits = { RATE_LIMIT_USER_OPS_PER_MIN: '100000000' };
  const config = loadConfig({ LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', DATA_DIR: '/nonexistent', ...limits });
  const db = await openBenchDb();
  const cleanup: (() => Promise<void>)[] = [() => db.close()];
  try {
    const ctx = await buildContext({ config, db, logger: createLogger(config.LOG_LEVEL) });
    const api = await listen(createApp(ctx), config);
    cleanup.unshift(() => api.close());

    const bank = { name: 'Bench bank', contactEmail: 'ops@bank.test', secret: SECRET };
    const { client } = await createClient(db, systemClock, config.APP_ENV, bank);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET });
    const tokenBody = await call(`${api.url}/oauth/token`, { method: 'POST', body: form }, 200);
    const token = z.object({ access_token: z.string() }).parse(json(tokenBody)).access_token;
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
    const { userId } = z.object({ data: z.object({ userId: z.string() }) }).parse(json(enrolled)).data;
    await verifyWithSandboxAnswers(api.url, auth, userId);

    const targets = TARGETS.map((t) => ({ ...t, bare: t.bare ?? false, path: t.path.replaceAll('{userId}', userId) }));
    const bodies = new Map<string, Buffer>();
    for (const { path } of targets.filter((t) => t.bare)) {
      bodies.set(path, await call(`${api.url}${path}`, { headers: auth }, 200));
    }
    const bare = await startBareServer(bodies);
    cleanup.unshift(() => bare.close());

    const run = (t: (typeof targets)[number], seconds: number) =>
      measure(t.name, `${t.bare ? bare.url : api.url}${t.path}`, t.bare ? {} : auth, seconds);
    for (const t of targets) await run(t, WARMUP_SECONDS);
    const results: Measurement[] = [];
    for (const t of targets) results.push({ ...(await run(t, DURATION)), path: t.path, bare: t.bare });

    const dbKind = db.kind === 'postgres' ? 'postgres (DATABASE_URL, throwaway schema)' : 'pglite (in-memory)';
    console.log(`db: ${dbKind}   node: ${process.version}   connections: ${CONNECTIONS}   log: ${config.LOG_LEVEL}`);
    console.log(`duration: ${DURATION} s per target, after a ${WARMUP_SECONDS} s warm-up each   user: ${userId}\n`);
    report(results);
    const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
    for (const r of failed) console.error(`FAIL ${r.name}: ${r.non2xx} non-2xx responses, ${r.errors} errors`);
    return failed.length > 0 ? 1 : 0;
  } finally {
    for (const step of cleanup) await step();
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
