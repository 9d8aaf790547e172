/**
 * Throughput and latency of the real API next to two servers answering the same bytes from memory: bare node:http
 * (the floor any Node server pays) and a one-route Express 5 app (what the framework alone costs). The gaps are
 * what middleware, auth, rate limiting, logging and the database cost per request.
 *
 *   pnpm bench:api                                   # in-memory PGlite, 64 connections, 3 rounds of 10 s per target
 *   DATABASE_URL=postgres://… pnpm bench:api         # PostgreSQL, in a throwaway schema
 *   BENCH_DURATION=5 BENCH_ROUNDS=1 BENCH_CONNECTIONS=16 pnpm bench:api
 *   DATABASE_URL=postgres://… BENCH_API_PROCESSES=2 pnpm bench:api   # the API as 2 processes on one port (API_PROCESSES)
 *
 * Processes: the API (apps/bff/bench/api/api-server.ts, api role, no webhook worker, LOG_LEVEL=info to /dev/null,
 * BENCH_LOG_LEVEL to change), the two baselines (api/baseline-server.ts) and the load generator each run in their
 * own process, so this coordinating process takes no CPU from what it measures. The generator is `wrk` when it is
 * installed, else autocannon in a child process (BENCH_GENERATOR=autocannon forces it).
 * Pinning: when `taskset` exists and there are 2+ CPUs (BENCH_PIN=0 turns it off), every server runs on CPU 0 and
 * the generator and this process on CPU 1; PostgreSQL is not ours to pin and runs wherever the kernel puts it.
 * BENCH_API_PROCESSES (1): the API's processes; more than 1 needs PostgreSQL. Pinned, they all share CPU 0 (they
 * inherit the primary's affinity), which measures their overhead, not their gain: give them CPUs with BENCH_PIN=0
 * or on a machine with more cores.
 * Only one server is under load at a time; the others sit idle.
 *
 * Order: a BENCH_WARMUP-second (2) warm-up per route and server, then BENCH_ROUNDS (3) rounds; each round measures
 * every route on bare, Express and the API in turn for BENCH_DURATION (10) seconds, so drift on a shared machine
 * hits all three alike. Reported per route and server: the median over rounds of req/s, p50 and p99 (with the
 * req/s range), the sum of non-2xx answers and of errors (socket errors and requests unanswered after
 * BENCH_TIMEOUT (2) seconds, wrk's default), and the req/s ratios API/Express and API/bare.
 * The API's rate limits are raised out of reach via env (the limiter still runs on every request).
 * Exits 1 when the API answered anything but 2xx or left a request unanswered.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { type Generator, hasCommand, type LoadResult, openGenerator, type Pin } from './api/load.ts';

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
};

const DURATION = envInt('BENCH_DURATION', 10);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 64);
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const WARMUP = envInt('BENCH_WARMUP', 2);
const TIMEOUT = envInt('BENCH_TIMEOUT', 2);
const HERE = import.meta.dirname;

const ROUTES = [
  { name: 'GET /v1/users/{id}', path: '/v1/users/{userId}' },
  { name: 'GET …/credit-score', path: '/v1/users/{userId}/credit-score' },
  { name: 'GET …/offers', path: '/v1/users/{userId}/offers' },
];
const SERVERS = ['bare', 'express', 'api'] as const;
type Server = (typeof SERVERS)[number];

// ---- pinning -------------------------------------------------------------------------------------------------------

const CPU = { servers: 0, generator: 1 };
// Read before this process pins itself, which narrows what availableParallelism reports.
const CPUS = os.availableParallelism();
const canPin = process.env.BENCH_PIN !== '0' && CPUS >= 2 && hasCommand('taskset');
const pin: Pin = {
  prefix: (cpu) => (canPin ? ['taskset', '-c', String(cpu)] : []),
  process: (pid, cpu) => {
    if (canPin && pid) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
  },
};

// ---- child processes -----------------------------------------------------------------------------------------------

const start = <T>(file: string, env: Record<string, string>, first?: unknown): Promise<{ child: ChildProcess; ready: T }> => {
  // stdout ignored: the API's access log goes nowhere, as to a fast log shipper; errors still show on stderr.
  const child = fork(path.join(HERE, 'api', file), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  pin.process(child.pid, CPU.servers);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    if (first !== undefined) child.send(first as never);
  });
};

// ---- report --------------------------------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
const widths = [22, 9, 9, 15, 9, 9, 8, 7];
const line = (cells: string[]) =>
  console.log(cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 8) : c.padStart(widths[i] ?? 8))).join(' '));

const report = (runs: Map<string, LoadResult[]>) => {
  line(['route', 'server', 'req/s', 'req/s range', 'p50 ms', 'p99 ms', 'non-2xx', 'errors']);
  const summary = new Map<string, number>();
  for (const route of ROUTES) {
    for (const server of SERVERS) {
      const results = runs.get(`${route.name}|${server}`) ?? [];
      const rps = results.map((r) => r.reqPerSec);
      summary.set(`${route.name}|${server}`, median(rps));
      line([
        route.name,
        server,
        median(rps).toFixed(0),
        `${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)}`,
        ms(median(results.map((r) => r.p50))),
        ms(median(results.map((r) => r.p99))),
        String(results.reduce((n, r) => n + r.non2xx, 0)),
        String(results.reduce((n, r) => n + r.errors, 0)),
      ]);
    }
  }
  console.log('\nreq/s ratios (median over rounds)');
  for (const route of ROUTES) {
    const api = summary.get(`${route.name}|api`) ?? 0;
    const ratio = (server: Server) => `${(api / (summary.get(`${route.name}|${server}`) || Number.NaN)).toFixed(2)}×`;
    console.log(`  ${route.name.padEnd(22)} API/Express ${ratio('express').padStart(6)}   API/bare ${ratio('bare').padStart(6)}`);
  }
};

// ---- main ----------------------------------------------------------------------------------------------------------

const main = async (): Promise<number> => {
  pin.process(process.pid, CPU.generator);
  const children: ChildProcess[] = [];
  let generator: Generator | undefined;
  try {
    const limits = {
      RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
      RATE_LIMIT_AUTH_PER_MIN: '100000000',
      RATE_LIMIT_BATCH_PER_MIN: '100000000',
    };
    const api = await start<{ url: string; authorization: string; userId: string; db: string; processes: number }>(
      'api-server.ts',
      limits,
    );
    children.push(api.child);
    const headers = { authorization: api.ready.authorization };
    const paths = ROUTES.map((r) => r.path.replaceAll('{userId}', api.ready.userId));

    // The bytes the API answers for each path, captured once, are what the baselines serve.
    const bodies: [string, string][] = [];
    for (const p of paths) {
      const res = await fetch(`${api.ready.url}${p}`, { headers });
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
      bodies.push([p, Buffer.from(await res.arrayBuffer()).toString('base64')]);
    }
    const urls: Record<Server, string> = { api: api.ready.url, bare: '', express: '' };
    for (const kind of ['bare', 'express'] as const) {
      const baseline = await start<{ url: string }>('baseline-server.ts', { BENCH_SERVER: kind }, { bodies });
      children.push(baseline.child);
      urls[kind] = baseline.ready.url;
    }
    generator = openGenerator(pin, CPU.generator);

    const database = api.ready.db === 'postgres' ? 'PostgreSQL (DATABASE_URL, throwaway schema)' : 'PGlite (in memory)';
    console.log(`database   ${database}; node ${process.version}; ${CPUS} CPUs; API processes ${api.ready.processes}`);
    console.log(`generator  ${generator.name}, ${CONNECTIONS} connections, timeout ${TIMEOUT} s`);
    console.log(
      canPin
        ? `pinning    servers CPU ${CPU.servers}; generator and coordinator CPU ${CPU.generator}`
        : 'pinning    none (no taskset, one CPU, or BENCH_PIN=0)',
    );
    console.log(
      `runs       ${WARMUP} s warm-up each, then ${ROUNDS} round(s) × ${DURATION} s per route and server, alternated\n`,
    );

    const run = (server: Server, i: number, duration: number) =>
      (generator as Generator).run({
        url: `${urls[server]}${paths[i]}`,
        connections: CONNECTIONS,
        duration,
        timeout: TIMEOUT,
        headers,
      });
    for (let i = 0; i < ROUTES.length; i++) for (const server of SERVERS) await run(server, i, WARMUP);
    const runs = new Map<string, LoadResult[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < ROUTES.length; i++) {
        for (const server of SERVERS) {
          const key = `${ROUTES[i]?.name}|${server}`;
          runs.set(key, [...(runs.get(key) ?? []), await run(server, i, DURATION)]);
        }
      }
    }
    report(runs);
    let failed = 0;
    for (const route of ROUTES) {
      const results = runs.get(`${route.name}|api`) ?? [];
      const non2xx = results.reduce((n, r) => n + r.non2xx, 0);
      const errors = results.reduce((n, r) => n + r.errors, 0);
      if (non2xx + errors === 0) continue;
      console.error(`FAIL API ${route.name}: ${non2xx} non-2xx answers, ${errors} errors`);
      failed++;
    }
    return failed > 0 ? 1 : 0;
  } finally {
    generator?.close();
    for (const child of children) {
      child.removeAllListeners('exit');
      if (child === children[0]) {
        // The API drops its PostgreSQL schema on the way out.
        await new Promise((resolve) => {
          child.once('exit', resolve);
          child.send('stop');
        });
      } else child.disconnect();
    }
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
