/**
 * The API's read routes next to an Express baseline, measured from outside the way issue 25 asks:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:api   # PostgreSQL, in a throwaway schema
 *   pnpm bench:api                                                         # in-memory PGlite
 *   BENCH_DURATION=5 BENCH_ROUNDS=1 pnpm bench:api                         # shorter
 *
 * 1. Throughput: wrk, 64 connections, every read route (`GET /v1/users/{id}`, `…/credit-score`, `…/offers`) on the
 *    API and on a one-route Express 5 app that answers the bytes the API answered with the same header lines
 *    (security headers, rate-limit headers, request id, Cache-Control…: captured from the API once), so the ratio
 *    compares the work behind an answer. Rounds alternate the order (Express, API / API, Express) so drift on a
 *    shared machine hits both. Prints median req/s, p50/p99 and the API/Express ratio per route.
 * 2. Paced latency: `hey -q` (evenly spaced requests per worker, BENCH_PACED_WORKERS=16 workers) at half the req/s
 *    Express sustained on that route, API and Express alternated: p99 and max of each and their ratios. At
 *    saturation a p99 only measures the queue; at half load it measures pauses (garbage collection, sync work).
 * 3. Mixed load: wrk cycling the three read routes, read-only and then with every 20th request a write (5 %:
 *    enrol a new user, mark an alert read), alternated; reads/s of the mix over reads/s read-only. On PostgreSQL the
 *    Express baseline takes the same mix, its writes one INSERT or UPDATE each (baseline-server.ts), alternated with
 *    the API: what reads keep on this machine when a write does only the least any server must do. Reads kept is the
 *    median over rounds of each round's ratio, its two runs back to back (a drift between rounds cancels).
 * 4. Audit (issue 24): a second API process, the same code without the audit hook (BENCH_AUDIT=0, its own schema),
 *    under load side by side with the API (two wrk at once, half the connections each, both servers sharing CPU 0),
 *    so a host that slows down for a minute slows both alike; BENCH_AUDIT_MODE=alternated runs them one after the
 *    other instead. Per round: req/s with the hook over req/s without (goal ≥ 0.95: reads move by at most 5 %) and
 *    the CPU per request without over with; printed as the median of the rounds' ratios and their range.
 *    `BENCH_AUDIT=0 BENCH_PHASES=audit pnpm bench:api` is the control: both processes without the hook (an A/A run). BENCH_ROLE=api (PostgreSQL) runs both as a split
 *    deployment's API processes, each with a worker process of its own that chains the spooled entries.
 * The load average (os.loadavg, as `uptime` shows it) is printed at the start and the end: the machine is shared.
 *
 * Processes: the API (apps/bff/bench/api/api-server.ts, api role, no webhook worker, LOG_LEVEL=info to /dev/null,
 * BENCH_LOG_LEVEL to change), the baseline (api/baseline-server.ts) and the load generators each run in their own
 * process. Pinning (taskset, 2+ CPUs, BENCH_PIN=0 turns it off): both servers on CPU 0, wrk/hey and this process on
 * CPU 1; PostgreSQL runs wherever the kernel puts it (BENCH_PIN_POSTGRES=1: a local one joins CPU 1 for the run and
 * gets its own mask back at the end, api/postgres-pinning.ts). Only one server is under load at a time.
 * Knobs: BENCH_CONNECTIONS (64), BENCH_DURATION (10 s), BENCH_ROUNDS (2), BENCH_WARMUP (2 s), BENCH_TIMEOUT (2 s),
 * BENCH_PACED_DURATION (10 s), BENCH_PACED_WORKERS (16), BENCH_GENERATOR=autocannon (fallbacks), BENCH_API_PROCESSES,
 * BENCH_PHASES (throughput,paced,mixed,audit: paced needs throughput), BENCH_ROLE (all), BENCH_CPU_PROF=<dir> (the API runs under
 * `node --cpu-prof` and writes its profile there when it stops), BENCH_API_NODE_FLAGS (more node flags for the API, e.g.
 * `--trace-gc` or `--perf-basic-prof` for Linux perf), BENCH_API_STDOUT=<file> (keep the API's stdout there: its access
 * log and what those flags print).
 * The API's rate limits are raised out of reach via env (the limiter still runs on every request).
 * Exits 1 when the API answered anything but 2xx or left a request unanswered; the goals are printed, not enforced
 * (a shared machine's numbers move).
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { BaselineSetup, CapturedAnswer } from './api/baseline-server.ts';
import { type Generator, hasCommand, type LoadResult, openGenerator, openPacer, type Pacer, type Pin } from './api/load.ts';
import { mixAlertIdLua } from './api/mix-alerts.ts';
import { type PostgresPinning, pinPostgres } from './api/postgres-pinning.ts';

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
};

const DURATION = envInt('BENCH_DURATION', 10);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 64);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 2);
const TIMEOUT = envInt('BENCH_TIMEOUT', 2);
const PACED_DURATION = envInt('BENCH_PACED_DURATION', 10);
const PACED_WORKERS = envInt('BENCH_PACED_WORKERS', 16);
/** One request in this many is a write in the mixed load: 5 % (BENCH_WRITE_EVERY=1: writes only, to price one). */
const WRITE_EVERY = envInt('BENCH_WRITE_EVERY', 20);
/**
 * Which writes the mix sends: both in turn (default), or only `enrol`, only `read` (marking an alert read), or only
 * `consent` (renewing a second user's consent: the one write here that names a cache tag, `user:<that user>`, so the
 * one that shows a write emptying caches it did not touch, issue 25's defect 1, in the read cache's loads).
 */
const MIX_WRITES = process.env.BENCH_MIX_WRITE ?? 'both';
if (!['both', 'enrol', 'read', 'consent'].includes(MIX_WRITES))
  throw new Error('BENCH_MIX_WRITE must be both, enrol, read or consent');
const HERE = import.meta.dirname;
const PHASES = new Set((process.env.BENCH_PHASES ?? 'throughput,paced,mixed,audit').split(','));
const CPU_PROF = process.env.BENCH_CPU_PROF;
const apiStdout = process.env.BENCH_API_STDOUT ? fs.openSync(process.env.BENCH_API_STDOUT, 'w') : undefined;
const AUDIT_MODE = process.env.BENCH_AUDIT_MODE ?? 'side-by-side';
if (AUDIT_MODE !== 'side-by-side' && AUDIT_MODE !== 'alternated')
  throw new Error(`BENCH_AUDIT_MODE must be side-by-side or alternated, got ${AUDIT_MODE}`);

const ROUTES = [
  { name: 'GET /v1/users/{id}', path: '/v1/users/{userId}' },
  { name: 'GET …/credit-score', path: '/v1/users/{userId}/credit-score' },
  { name: 'GET …/offers', path: '/v1/users/{userId}/offers' },
];
/** `unaudited`: the API without the audit hook (BENCH_AUDIT=0), started for the audit phase only. */
type Server = 'express' | 'api' | 'unaudited';
/** What an API process (api/api-server.ts) reports once it serves and has seeded its user. */
interface ApiReady {
  url: string;
  authorization: string;
  userId: string;
  /** A second user, never read by the load, and a consent body for them (BENCH_MIX_WRITE=consent). */
  neighbourId: string;
  consentBody: string;
  db: string;
  processes: number;
  role: string;
}
/** Round r measures in this order: alternated, so a slow minute on the shared machine hits both servers. */
const orderOf = (round: number): Server[] => (round % 2 === 0 ? ['express', 'api'] : ['api', 'express']);
const GOALS = { throughput: 0.7, pacedP99: 1.2, pacedMax: 2, mixedReads: 0.85, auditKeeps: 0.95 };

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

const start = async <T>(
  file: string,
  env: Record<string, string>,
  first?: unknown,
): Promise<{ child: ChildProcess; ready: T }> => {
  // stdout ignored: the API's access log goes nowhere, as to a fast log shipper; errors still show on stderr.
  const profile = CPU_PROF && file === 'api-server.ts' ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
  const flags = file === 'api-server.ts' ? (process.env.BENCH_API_NODE_FLAGS ?? '').split(' ').filter(Boolean) : [];
  // Built as `pnpm start` runs the API (scripts/build.ts: bundled, no keepNames, plain node), not under tsx.
  const { bundleBenchServer, withoutTsx } = await import('../scripts/build.ts');
  const built = await bundleBenchServer(path.join(HERE, 'api', file));
  const child = fork(built, {
    execArgv: ['--enable-source-maps', ...withoutTsx(process.execArgv), ...flags, ...profile],
    env: { ...process.env, ...env },
    // BENCH_API_STDOUT=<file> keeps it instead (the access log, and what BENCH_API_NODE_FLAGS=--trace-gc prints).
    stdio: ['ignore', apiStdout && file === 'api-server.ts' ? apiStdout : 'ignore', 'inherit', 'ipc'],
  });
  pin.process(child.pid, CPU.servers);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
    child.once('message', (ready) => resolve({ child, ready: ready as T }));
    if (first !== undefined) child.send(first as never);
  });
};

/** Headers Node's HTTP layer writes by itself (or per connection): the baseline's server adds its own. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** The API's answer to `GET url`: body and header lines as sent (raw, in order), for the baseline to repeat. */
const capture = (url: string, headers: Record<string, string>, pathOnly: string): Promise<CapturedAnswer> =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode} ${Buffer.concat(chunks)}`));
          const lines: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const name = res.rawHeaders[i] as string;
            if (!TRANSPORT_HEADERS.has(name.toLowerCase())) lines.push([name, res.rawHeaders[i + 1] as string]);
          }
          resolve([pathOnly, Buffer.concat(chunks).toString('base64'), lines]);
        });
      })
      .on('error', reject);
  });

interface Usage {
  cpuUs: number;
  /** The server's garbage collection so far: pause time (µs) and major collections (api/gc-meter.ts). */
  gcUs: number;
  majorGcs: number;
  /** The API's read-cache loads so far (the baseline has no cache; nor does the bench read it with several processes). */
  cacheLoads?: number;
}

/** A server process's CPU time so far (µs), and its read cache's loads, asked over IPC: a run's differences count. */
const usageOf = (child: ChildProcess): Promise<Usage> =>
  new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message === 'object' && message !== null && 'cpuUs' in message) {
        child.off('message', onMessage);
        resolve(message as Usage);
      }
    };
    child.on('message', onMessage);
    child.send('cpu');
  });

/** The process's CPU time so far (µs): a run's difference ÷ its requests is CPU per request. */
const cpuOf = async (child: ChildProcess): Promise<number> => (await usageOf(child)).cpuUs;

// ---- the mixed load (wrk Lua) ----------------------------------------------------------------------------------------

const lua = (value: string) => JSON.stringify(value); // a JSON string of ASCII is a valid Lua string literal

/** wrk's request(): the three read routes in turn; with writes, every WRITE_EVERY-th request enrols or marks read. */
const mixScript = (opts: {
  paths: string[];
  authorization: string;
  /** `/v1/users/{userId}/alerts/`: a random alert of the pool (mix-alerts.ts) is marked read. */
  alertsPath: string;
  consentPath: string;
  consentBody: string;
  writes: boolean;
}): string => {
  const enrolment = JSON.stringify({
    externalUserId: 'mix-%s-%d',
    email: 'mix@example.test',
    firstName: 'Mia',
    lastName: 'Mix',
    ssn: '1234',
    dateOfBirth: '1985-04-12',
    address: { street: '1 Mix St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  });
  return `
local reads = { ${opts.paths.map(lua).join(', ')} }
local readHeaders = { ["Authorization"] = ${lua(opts.authorization)} }
local jsonHeaders = { ["Authorization"] = ${lua(opts.authorization)}, ["Content-Type"] = "application/json" }
local writeEvery = ${opts.writes ? WRITE_EVERY : 0}
local run = ${lua(Math.random().toString(36).slice(2, 10))}
math.randomseed(${Math.floor(Math.random() * 2 ** 31)})
local n = 0
request = function()
  n = n + 1
  if writeEvery > 0 and n % writeEvery == 0 then
    if ${MIX_WRITES === 'consent' ? 'true' : 'false'} then
      return wrk.format("POST", ${lua(opts.consentPath)}, jsonHeaders, ${lua(opts.consentBody)})
    end
    if ${MIX_WRITES === 'enrol' ? 'true' : MIX_WRITES === 'read' ? 'false' : '(n / writeEvery) % 2 == 1'} then
      return wrk.format("POST", "/v1/users/enroll", jsonHeaders, string.format(${lua(enrolment)}, run, n))
    end
    return wrk.format("PATCH", ${lua(opts.alertsPath)} .. ${mixAlertIdLua}, jsonHeaders, '{"status":"read"}')
  end
  return wrk.format("GET", reads[n % #reads + 1], readHeaders)
end
`;
};

// ---- report --------------------------------------------------------------------------------------------------------

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
const table = (widths: number[], cells: string[]) =>
  console.log(cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 8) : c.padStart(widths[i] ?? 8))).join(' '));
const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const verdict = (value: number, goal: number, atMost: boolean) => ((atMost ? value <= goal : value >= goal) ? 'met' : 'NOT met');

type Runs = Map<string, LoadResult[]>;
const add = (runs: Runs, key: string, result: LoadResult) => runs.set(key, [...(runs.get(key) ?? []), result]);
const of = (runs: Runs, key: string) => runs.get(key) ?? [];
const med = (runs: Runs, key: string, pick: (r: LoadResult) => number) => median(of(runs, key).map(pick));
const range = (results: LoadResult[]) => {
  const rps = results.map((r) => r.reqPerSec);
  return `${Math.min(...rps).toFixed(0)}–${Math.max(...rps).toFixed(0)}`;
};

// ---- main ----------------------------------------------------------------------------------------------------------

const main = async (): Promise<number> => {
  pin.process(process.pid, CPU.generator);
  // BENCH_PIN_POSTGRES=1: a local PostgreSQL shares the generators' CPU for the run (api/postgres-pinning.ts).
  const postgresPinning: PostgresPinning | undefined =
    process.env.BENCH_PIN_POSTGRES === '1'
      ? canPin && process.env.DATABASE_URL
        ? await pinPostgres(process.env.DATABASE_URL, CPU.generator)
        : { pinned: false, why: 'no DATABASE_URL, or no pinning (BENCH_PIN=0, one CPU or no taskset)' }
      : undefined;
  const children: ChildProcess[] = [];
  // API processes drop their PostgreSQL schema when told to stop; the others are just let go.
  const apiChildren = new Set<ChildProcess>();
  let generator: Generator | undefined;
  let pacer: Pacer | undefined;
  const loadAtStart = loadAverage();
  try {
    const limits = {
      RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
      RATE_LIMIT_AUTH_PER_MIN: '100000000',
      RATE_LIMIT_BATCH_PER_MIN: '100000000',
    };
    // BENCH_ROLE=api: each API's chain worker runs beside the generators, off the API's CPU (as on its own machine).
    const chainWorkerCpu: Record<string, string> = canPin ? { BENCH_CHAIN_WORKER_CPU: String(CPU.generator) } : {};
    const api = await start<ApiReady>('api-server.ts', { ...limits, ...chainWorkerCpu });
    children.push(api.child);
    apiChildren.add(api.child);
    // The same code without the audit hook, idle until the audit phase: what recording reads costs, by difference.
    const unaudited = PHASES.has('audit')
      ? await start<ApiReady>('api-server.ts', { ...limits, ...chainWorkerCpu, BENCH_AUDIT: '0' })
      : undefined;
    if (unaudited) {
      children.push(unaudited.child);
      apiChildren.add(unaudited.child);
    }
    const headers = { authorization: api.ready.authorization };
    const paths = ROUTES.map((r) => r.path.replaceAll('{userId}', api.ready.userId));

    // What the API answers for each path, header lines included, captured once, is what the baseline serves.
    const answers: CapturedAnswer[] = [];
    for (const p of paths) answers.push(await capture(`${api.ready.url}${p}`, headers, p));
    // With PostgreSQL (and a mixed phase) the baseline also takes the mixed load's writes, in a schema of its own.
    const baselineWrites = PHASES.has('mixed') && api.ready.db === 'postgres' && Boolean(process.env.DATABASE_URL);
    const setup: BaselineSetup = baselineWrites ? { answers, database: process.env.DATABASE_URL } : { answers };
    const baseline = await start<{ url: string }>('baseline-server.ts', {}, setup);
    children.push(baseline.child);
    const urls: Record<Server, string> = {
      api: api.ready.url,
      express: baseline.ready.url,
      unaudited: unaudited?.ready.url ?? '',
    };
    const pathsOf = (server: Server) =>
      server === 'unaudited' && unaudited ? ROUTES.map((r) => r.path.replaceAll('{userId}', unaudited.ready.userId)) : paths;
    generator = openGenerator(pin, CPU.generator);
    pacer = openPacer(pin, CPU.generator);

    const database = api.ready.db === 'postgres' ? 'PostgreSQL (DATABASE_URL, throwaway schema)' : 'PGlite (in memory)';
    console.log(
      `database   ${database}; node ${process.version}; ${CPUS} CPUs; API processes ${api.ready.processes}, role ${api.ready.role}${api.ready.role === 'api' ? ' (a worker process chains the audit spool)' : ' (chains the audit spool itself)'}`,
    );
    console.log(`machine    shared (other work may run); load average at start ${loadAtStart}`);
    console.log(`generators ${generator.name} (${CONNECTIONS} connections, timeout ${TIMEOUT} s); paced: ${pacer.name}`);
    console.log(
      canPin
        ? `pinning    servers CPU ${CPU.servers}; generators and coordinator CPU ${CPU.generator}`
        : 'pinning    none (no taskset, one CPU, or BENCH_PIN=0)',
    );
    if (postgresPinning) {
      console.log(
        postgresPinning.pinned
          ? `           PostgreSQL (postmaster ${postgresPinning.postmaster}, its backends and workers) CPU ${CPU.generator} for this run, then as it was`
          : `           PostgreSQL not pinned: ${postgresPinning.why} (it may run on the servers' CPU)`,
      );
    }
    const headerLines = (answers[0]?.[2].length ?? 0) + 3; // + Date, Connection, Keep-Alive / Content-Length
    console.log(`baseline   Express 5 answering the API's captured bytes and its ${headerLines} header lines`);
    const diagnostics = [
      process.env.BENCH_AUDIT === 'unheld' &&
        "BENCH_AUDIT=unheld (reads answered before their audit entry commits: not the product's behaviour)",
      process.env.BENCH_MIX_HANDLER === 'baseline' &&
        "BENCH_MIX_HANDLER=baseline (the API's process answers the mix's writes with the baseline's handlers)",
      process.env.BENCH_BASELINE_READS === 'raw' &&
        "BENCH_BASELINE_READS=raw (the baseline answers the reads before Express: Node's HTTP server alone)",
    ].filter(Boolean);
    if (diagnostics.length) console.log(`diagnostic ${diagnostics.join('; ')}`);
    console.log(`runs       ${WARMUP} s warm-up each, then ${ROUNDS} alternated round(s) × ${DURATION} s per route and server\n`);

    // CPU µs per request of each server's process (the API as one process only): on a shared machine this moves
    // much less than req/s, and Express's CPU per request over the API's is the ratio a quiet machine would show.
    const cpuPerRequest = new Map<string, number[]>();
    const childOf: Record<Server, ChildProcess | undefined> = {
      api: api.ready.processes === 1 ? api.child : undefined,
      express: baseline.child,
      unaudited: unaudited && unaudited.ready.processes === 1 ? unaudited.child : undefined,
    };
    const run = async (server: Server, i: number, duration: number, phase = '') => {
      const child = childOf[server];
      const cpuBefore = child ? await cpuOf(child) : undefined;
      const result = await (generator as Generator).run({
        url: `${urls[server]}${pathsOf(server)[i]}`,
        connections: CONNECTIONS,
        duration,
        timeout: TIMEOUT,
        headers: server === 'unaudited' && unaudited ? { authorization: unaudited.ready.authorization } : headers,
      });
      if (child && cpuBefore !== undefined && duration === DURATION) {
        const used = (await cpuOf(child)) - cpuBefore;
        const key = `${phase}${i}|${server}`;
        cpuPerRequest.set(key, [...(cpuPerRequest.get(key) ?? []), used / (result.reqPerSec * duration)]);
      }
      return result;
    };

    // 1. Throughput.
    const runs: Runs = new Map();
    if (PHASES.has('throughput'))
      for (let i = 0; i < ROUTES.length; i++) for (const server of orderOf(0)) await run(server, i, WARMUP);
    for (let round = 0; round < (PHASES.has('throughput') ? ROUNDS : 0); round++) {
      for (let i = 0; i < ROUTES.length; i++) {
        for (const server of orderOf(round)) add(runs, `${i}|${server}`, await run(server, i, DURATION));
      }
    }
    const W1 = [20, 8, 8, 13, 8, 8, 8, 7];
    if (PHASES.has('throughput')) {
      console.log('1. throughput (wrk, 64 connections)');
      table(W1, ['route', 'server', 'req/s', 'req/s range', 'p50 ms', 'p99 ms', 'non-2xx', 'errors']);
      for (let i = 0; i < ROUTES.length; i++) {
        for (const server of ['express', 'api'] as const) {
          const results = of(runs, `${i}|${server}`);
          table(W1, [
            ROUTES[i]?.name ?? '',
            server,
            med(runs, `${i}|${server}`, (r) => r.reqPerSec).toFixed(0),
            range(results),
            ms(med(runs, `${i}|${server}`, (r) => r.p50)),
            ms(med(runs, `${i}|${server}`, (r) => r.p99)),
            String(results.reduce((n, r) => n + r.non2xx, 0)),
            String(results.reduce((n, r) => n + r.errors, 0)),
          ]);
        }
      }
    }

    const cpuOfRoute = (i: number, server: Server) => median(cpuPerRequest.get(`${i}|${server}`) ?? []);
    if (PHASES.has('throughput') && cpuOfRoute(0, 'express') > 0) {
      console.log('  CPU per request (µs, median over rounds), Express / API, and Express/API (the ratio on a quiet core):');
      for (let i = 0; i < ROUTES.length; i++) {
        const [express, apiCpu] = [cpuOfRoute(i, 'express'), cpuOfRoute(i, 'api')];
        console.log(
          `    ${(ROUTES[i]?.name ?? '').padEnd(20)} ${express.toFixed(0)} / ${apiCpu.toFixed(0)}   ${(express / apiCpu).toFixed(2)}×`,
        );
      }
    }

    const paced: Runs = new Map();
    if (PHASES.has('paced') && PHASES.has('throughput')) {
      // 2. Paced latency at half of what Express sustained on each route.
      const rates = ROUTES.map((_, i) => Math.round(med(runs, `${i}|express`, (r) => r.reqPerSec) / 2));
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < ROUTES.length; i++) {
          for (const server of orderOf(round)) {
            const result = await (pacer as Pacer).run({
              url: `${urls[server]}${paths[i]}`,
              rate: rates[i] as number,
              workers: PACED_WORKERS,
              duration: PACED_DURATION,
              headers,
            });
            add(paced, `${i}|${server}`, result);
          }
        }
      }
      const W2 = [20, 8, 8, 8, 8, 8, 8, 7];
      console.log(
        `\n2. paced (${pacer.name}, ${PACED_WORKERS} workers, half of Express's req/s; median of ${ROUNDS} alternated runs)`,
      );
      table(W2, ['route', 'server', 'rate', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx']);
      for (let i = 0; i < ROUTES.length; i++) {
        for (const server of ['express', 'api'] as const) {
          const key = `${i}|${server}`;
          table(W2, [
            ROUTES[i]?.name ?? '',
            server,
            String(rates[i]),
            med(paced, key, (r) => r.reqPerSec).toFixed(0),
            ms(med(paced, key, (r) => r.p50)),
            ms(med(paced, key, (r) => r.p99)),
            ms(med(paced, key, (r) => r.max)),
            String(of(paced, key).reduce((n, r) => n + r.non2xx + r.errors, 0)),
          ]);
        }
      }
    }
    const mix: Runs = new Map();
    // The baseline takes the mixed load's writes too when it has PostgreSQL (one statement each: baseline-server.ts).
    const mixServers: ('api' | 'express')[] = baselineWrites ? ['api', 'express'] : ['api'];
    const mixKey = (server: 'api' | 'express', writes: boolean) => `${server}|${writes ? 'mixed' : 'reads'}`;
    /** Per server, each round's reads kept: its mixed run's reads/s over its read-only run's, the two back to back. */
    const keptByRound = new Map<'api' | 'express', number[]>();
    const keptOf = (server: 'api' | 'express') => keptByRound.get(server) ?? [];
    const percentRange = (values: number[]) =>
      `${(100 * Math.min(...values)).toFixed(1)}–${(100 * Math.max(...values)).toFixed(1)} %`;
    if (PHASES.has('mixed')) {
      // 3. Mixed load: the read routes in turn, without and with 5 % writes, alternated; the API and the baseline.
      const alertsPath = `/v1/users/${api.ready.userId}/alerts/`;
      // Each server process's CPU over each run: whether the reads lost to writes are the server's own work (its
      // share of the wall clock stays ~100 % and CPU per request rises) or time it did not get (PostgreSQL's commits
      // on its core, connections waiting on writes: its share falls).
      // And the API's read-cache loads per 1,000 requests: a write that empties caches it does not touch (issue 25's
      // defect 1) makes the reads after it load again, which this shows whatever the host's speed.
      type MixCpu = { perRequest: number; share: number; gcPerRequest: number; majorGcs: number; loadsPerThousand?: number };
      const mixCpu = new Map<string, MixCpu[]>();
      const mixRun = async (server: 'api' | 'express', writes: boolean, measured = true) => {
        const child = childOf[server];
        const before = child ? await usageOf(child) : undefined;
        const started = performance.now();
        const result = await (generator as Generator).run({
          url: `${urls[server]}${paths[0]}`,
          connections: CONNECTIONS,
          duration: DURATION,
          timeout: TIMEOUT,
          headers,
          luaRequest: mixScript({
            paths,
            authorization: api.ready.authorization,
            alertsPath,
            consentPath: `/v1/users/${api.ready.neighbourId}/consent`,
            consentBody: api.ready.consentBody,
            writes,
          }),
        });
        if (child && before !== undefined && measured) {
          const after = await usageOf(child);
          const used = after.cpuUs - before.cpuUs;
          const requests = result.reqPerSec * DURATION;
          const key = mixKey(server, writes);
          const sample = {
            perRequest: used / requests,
            gcPerRequest: (after.gcUs - before.gcUs) / requests,
            majorGcs: after.majorGcs - before.majorGcs,
            share: used / ((performance.now() - started) * 1000),
            ...(after.cacheLoads !== undefined && before.cacheLoads !== undefined
              ? { loadsPerThousand: (1000 * (after.cacheLoads - before.cacheLoads)) / requests }
              : {}),
          };
          mixCpu.set(key, [...(mixCpu.get(key) ?? []), sample]);
        }
        return result;
      };
      // Warm-up: the write paths' statements prepared, their code compiled.
      for (const server of mixServers) await mixRun(server, true, false);
      for (let round = 0; round < ROUNDS; round++) {
        const servers = round % 2 === 0 ? mixServers : [...mixServers].reverse();
        for (const server of servers) {
          const pair = new Map<boolean, LoadResult>();
          for (const writes of round % 2 === 0 ? [false, true] : [true, false]) {
            const result = await mixRun(server, writes);
            add(mix, mixKey(server, writes), result);
            pair.set(writes, result);
          }
          // This round's two runs of this server, back to back: a drift of the shared host between rounds cancels.
          const [reads, mixed] = [pair.get(false)?.reqPerSec ?? 0, pair.get(true)?.reqPerSec ?? 0];
          keptByRound.set(server, [...(keptByRound.get(server) ?? []), (mixed * (1 - 1 / WRITE_EVERY)) / reads]);
        }
      }
      const readShare = 1 - 1 / WRITE_EVERY;
      const cpuMedian = (key: string, pick: (c: MixCpu) => number) => median((mixCpu.get(key) ?? []).map(pick));
      console.log(`\n3. mixed load (wrk, ${CONNECTIONS} connections, the three read routes in turn)`);
      for (const server of mixServers) {
        const [readsKey, mixedKey] = [mixKey(server, false), mixKey(server, true)];
        const readOnly = med(mix, readsKey, (r) => r.reqPerSec);
        const mixedReads = med(mix, mixedKey, (r) => r.reqPerSec) * readShare;
        console.log(
          server === 'api'
            ? '  API'
            : '  Express baseline (each write one INSERT or UPDATE: no encryption, consent, event or audit)',
        );
        console.log(
          `    read-only         ${readOnly.toFixed(0)} reads/s (range ${range(of(mix, readsKey))} req/s), p99 ${ms(med(mix, readsKey, (r) => r.p99))} ms`,
        );
        console.log(
          `    with 5 % writes   ${mixedReads.toFixed(0)} reads/s of ${med(mix, mixedKey, (r) => r.reqPerSec).toFixed(0)} req/s (range ${range(of(mix, mixedKey))}), p99 ${ms(med(mix, mixedKey, (r) => r.p99))} ms, non-2xx ${of(mix, mixedKey).reduce((n, r) => n + r.non2xx, 0)}`,
        );
        console.log(
          `    reads keep        ${(100 * median(keptOf(server))).toFixed(1)} % (median of ${keptOf(server).length} rounds, each its two runs back to back; range ${percentRange(keptOf(server))}); medians over medians ${((100 * mixedReads) / readOnly).toFixed(0)} %`,
        );
        if (mixCpu.has(readsKey) && mixCpu.has(mixedKey)) {
          const [readCpu, mixedCpu] = [cpuMedian(readsKey, (c) => c.perRequest), cpuMedian(mixedKey, (c) => c.perRequest)];
          // Per request of the mix = 95 % reads at the read-only cost + 5 % writes: what one write costs the server.
          const writeCpu = (mixedCpu - readShare * readCpu) * WRITE_EVERY;
          console.log(
            `    CPU               read-only ${readCpu.toFixed(0)} µs/request, ${(100 * cpuMedian(readsKey, (c) => c.share)).toFixed(0)} % of a core; with writes ${mixedCpu.toFixed(0)} µs/request, ${(100 * cpuMedian(mixedKey, (c) => c.share)).toFixed(0)} % of a core (a write ≈ ${writeCpu.toFixed(0)} µs, ${(writeCpu / readCpu).toFixed(1)} reads)`,
          );
          console.log(
            `    GC                read-only ${cpuMedian(readsKey, (c) => c.gcPerRequest).toFixed(1)} µs/request, ${cpuMedian(readsKey, (c) => c.majorGcs)} major a run; with writes ${cpuMedian(mixedKey, (c) => c.gcPerRequest).toFixed(1)} µs/request, ${cpuMedian(mixedKey, (c) => c.majorGcs)} major a run (medians; pauses on the main thread)`,
          );
          const loads = (key: string) =>
            (mixCpu.get(key) ?? []).flatMap((c) => (c.loadsPerThousand === undefined ? [] : [c.loadsPerThousand]));
          if (loads(readsKey).length > 0 && loads(mixedKey).length > 0) {
            console.log(
              `    read cache        loads per 1,000 requests: read-only ${median(loads(readsKey)).toFixed(1)}, with writes ${median(loads(mixedKey)).toFixed(1)} (medians; a write is 1 in ${WRITE_EVERY})`,
            );
          }
        }
      }
    }
    const audit: Runs = new Map();
    /** Per route, the audit phase's rounds: with-hook req/s over without, and without's CPU per request over with's. */
    const auditRatios = new Map<number, { reqs: number[]; cpu: number[] }>();
    if (unaudited) {
      // 4. Audit: the API with its hook and without. Side by side (the default with wrk): both under load at once,
      // sharing CPU 0, so a slower minute of the host (other guests, frequency) slows both alike and each round's
      // ratio compares the same moment. Alternated (BENCH_AUDIT_MODE=alternated): one after the other, as phase 1.
      const sideBySide = AUDIT_MODE === 'side-by-side' && generator.name === 'wrk';
      const load = (server: Server, i: number, duration: number, connections: number) =>
        (generator as Generator).run({
          url: `${urls[server]}${pathsOf(server)[i]}`,
          connections,
          duration,
          timeout: TIMEOUT,
          headers: server === 'unaudited' && unaudited ? { authorization: unaudited.ready.authorization } : headers,
        });
      const bothAtOnce = async (i: number, duration: number) => {
        const servers = ['unaudited', 'api'] as const;
        const cpuBefore = await Promise.all(servers.map((s) => (childOf[s] ? cpuOf(childOf[s]) : Promise.resolve(0))));
        const results = await Promise.all(servers.map((s) => load(s, i, duration, Math.max(1, CONNECTIONS >> 1))));
        const cpuAfter = await Promise.all(servers.map((s) => (childOf[s] ? cpuOf(childOf[s]) : Promise.resolve(0))));
        const cpuPer = servers.map(
          (_, k) => ((cpuAfter[k] as number) - (cpuBefore[k] as number)) / ((results[k] as LoadResult).reqPerSec * duration),
        );
        return { without: results[0] as LoadResult, withHook: results[1] as LoadResult, cpuPer };
      };
      const record = (i: number, without: LoadResult, withHook: LoadResult, cpuWithout: number, cpuWith: number) => {
        add(audit, `${i}|unaudited`, without);
        add(audit, `${i}|api`, withHook);
        const ratios = auditRatios.get(i) ?? { reqs: [], cpu: [] };
        ratios.reqs.push(withHook.reqPerSec / without.reqPerSec);
        if (cpuWith > 0) ratios.cpu.push(cpuWithout / cpuWith);
        auditRatios.set(i, ratios);
      };
      const pair = (round: number): Server[] => (round % 2 === 0 ? ['unaudited', 'api'] : ['api', 'unaudited']);
      for (let i = 0; i < ROUTES.length; i++) {
        if (sideBySide) await bothAtOnce(i, WARMUP);
        else for (const server of pair(0)) await run(server, i, WARMUP);
      }
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < ROUTES.length; i++) {
          if (sideBySide) {
            const r = await bothAtOnce(i, DURATION);
            record(i, r.without, r.withHook, r.cpuPer[0] as number, r.cpuPer[1] as number);
            continue;
          }
          const results: Partial<Record<Server, LoadResult>> = {};
          for (const server of pair(round)) results[server] = await run(server, i, DURATION, 'audit|');
          const cpuList = (server: Server) => cpuPerRequest.get(`audit|${i}|${server}`) ?? [];
          record(
            i,
            results.unaudited as LoadResult,
            results.api as LoadResult,
            cpuList('unaudited').at(-1) ?? 0,
            cpuList('api').at(-1) ?? 0,
          );
        }
      }
      console.log(
        sideBySide
          ? `\n4. audit hook (two wrk at once, ${CONNECTIONS >> 1} connections each: the API with and without it side by side on CPU ${CPU.servers}; role ${api.ready.role})`
          : `\n4. audit hook (wrk, ${CONNECTIONS} connections; the API with and without it, alternated; role ${api.ready.role})`,
      );
      if (api.ready.role === 'api') {
        console.log("  (CPU µs: the API process's own; its worker chains on the generators' CPU, as on a machine of its own)");
      }
      console.log(`  (ratios: the median over ${ROUNDS} rounds of each round's own ratio, with their range)`);
      if (process.env.BENCH_AUDIT === '0') {
        console.log(
          "  CONTROL RUN: BENCH_AUDIT=0 reached both processes, so neither records reads: the ratios show the method's own bias and spread",
        );
      }
      const W4 = [20, 14, 14, 20, 20];
      table(W4, ['route', 'without req/s', 'with req/s', 'req/s with/without', 'CPU/req without/with']);
      const span = (values: number[]) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
      for (let i = 0; i < ROUTES.length; i++) {
        const ratios = auditRatios.get(i) ?? { reqs: [], cpu: [] };
        table(W4, [
          ROUTES[i]?.name ?? '',
          `${med(audit, `${i}|unaudited`, (r) => r.reqPerSec).toFixed(0)} (${range(of(audit, `${i}|unaudited`))})`,
          `${med(audit, `${i}|api`, (r) => r.reqPerSec).toFixed(0)} (${range(of(audit, `${i}|api`))})`,
          `${median(ratios.reqs).toFixed(3)} (${span(ratios.reqs)})`,
          ratios.cpu.length ? `${median(ratios.cpu).toFixed(3)} (${span(ratios.cpu)})` : 'n/a',
        ]);
      }
    }
    // Goals of issues 25 and 24.
    console.log('\ngoals (issues 25 and 24)');
    for (let i = 0; i < (PHASES.has('throughput') ? ROUTES.length : 0); i++) {
      const ratio = med(runs, `${i}|api`, (r) => r.reqPerSec) / med(runs, `${i}|express`, (r) => r.reqPerSec);
      const p99 = med(paced, `${i}|api`, (r) => r.p99) / med(paced, `${i}|express`, (r) => r.p99);
      const max = med(paced, `${i}|api`, (r) => r.max) / med(paced, `${i}|express`, (r) => r.max);
      const pacedGoals = PHASES.has('paced')
        ? `   paced p99 API/Express ${p99.toFixed(2)}× (≤ ${GOALS.pacedP99}: ${verdict(p99, GOALS.pacedP99, true)})` +
          `   paced max ${max.toFixed(2)}× (≤ ${GOALS.pacedMax}: ${verdict(max, GOALS.pacedMax, true)})`
        : '';
      console.log(
        `  ${(ROUTES[i]?.name ?? '').padEnd(20)} API/Express ${ratio.toFixed(2)}× (≥ ${GOALS.throughput}: ${verdict(ratio, GOALS.throughput, false)}; by CPU per request ${(cpuOfRoute(i, 'express') / cpuOfRoute(i, 'api')).toFixed(2)}×)${pacedGoals}`,
      );
    }
    if (PHASES.has('mixed')) {
      const kept = median(keptOf('api'));
      const baselineKept = mixServers.includes('express')
        ? `; the Express baseline, whose writes are one statement each, keeps ${(100 * median(keptOf('express'))).toFixed(0)} % (${percentRange(keptOf('express'))})`
        : '';
      console.log(
        `  mixed load: reads keep ${(100 * kept).toFixed(1)} % of read-only throughput (rounds ${percentRange(keptOf('api'))}; ≥ ${100 * GOALS.mixedReads} %: ${verdict(kept, GOALS.mixedReads, false)})${baselineKept}`,
      );
    }
    if (unaudited) {
      for (let i = 0; i < ROUTES.length; i++) {
        const kept = median(auditRatios.get(i)?.reqs ?? []);
        console.log(
          `  audit hook, ${(ROUTES[i]?.name ?? '').padEnd(20)} keeps ${(100 * kept).toFixed(1)} % of the req/s without it (≥ ${100 * GOALS.auditKeeps} %: ${verdict(kept, GOALS.auditKeeps, false)})`,
        );
      }
    }
    console.log(`\nload average at end ${loadAverage()} (shared machine: compare ratios, not absolute numbers)`);

    let failed = 0;
    const check = (label: string, results: LoadResult[]) => {
      const bad = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
      if (bad === 0) return;
      console.error(`FAIL API ${label}: ${bad} non-2xx answers or errors`);
      failed++;
    };
    for (let i = 0; i < ROUTES.length; i++) {
      check(`${ROUTES[i]?.name} (throughput)`, of(runs, `${i}|api`));
      check(`${ROUTES[i]?.name} (paced)`, of(paced, `${i}|api`));
    }
    check('mixed load', [...of(mix, mixKey('api', false)), ...of(mix, mixKey('api', true))]);
    for (let i = 0; i < ROUTES.length; i++)
      check(`${ROUTES[i]?.name} (audit phase)`, [...of(audit, `${i}|api`), ...of(audit, `${i}|unaudited`)]);
    return failed > 0 ? 1 : 0;
  } finally {
    if (postgresPinning?.pinned) postgresPinning.restore();
    generator?.close();
    pacer?.close();
    for (const child of children) {
      child.removeAllListeners('exit');
      if (child.exitCode !== null || child.signalCode !== null || !child.connected) continue;
      if (apiChildren.has(child)) {
        // The API drops its PostgreSQL schema on the way out (given 30 s; then it is killed, the schema left).
        await new Promise((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          child.once('exit', () => resolve(clearTimeout(timer)));
          child.send('stop');
        });
      } else {
        // The baseline drops its schema (when it had one) once disconnected: waited for, at most 10 s.
        await new Promise((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => resolve(clearTimeout(timer)));
          child.disconnect();
        });
      }
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
