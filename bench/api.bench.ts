/**
 * `pnpm bench:api`: the API's read routes next to an Express baseline, measured from outside.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test BENCH_ROLE=api pnpm bench:api   # PostgreSQL, split roles
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 pnpm bench:api                                       # in-memory PGlite, short
 *
 * 1. Throughput: wrk on every read route of the API (api/api-server.ts) and of the baseline (api/baseline-server.ts:
 *    Express answering the API's captured bytes with the same header lines), rounds alternating the order so a slow
 *    minute of the host hits both; req/s and each server's CPU per request.
 * 2. Paced: `hey -q` at half the req/s Express sustained on the route, API and Express alternated: p99 and max.
 * 3. Mixed: wrk cycling the three read routes, read-only and with every 20th request a write (enrol a user, mark an
 *    alert read), back to back per round: the reads kept, and the read cache's loads per 1,000 requests in each run
 *    (a write that empties entries it did not touch makes the reads after it load again).
 * Servers on CPU 0, generators and this process on CPU 1 (taskset; BENCH_PIN=0 turns it off). Knobs: BENCH_DURATION
 * (10 s), BENCH_ROUNDS (2), BENCH_WARMUP (2 s), BENCH_CONNECTIONS (64), BENCH_PACED_DURATION (10 s),
 * BENCH_PACED_WORKERS (16), BENCH_PHASES (throughput,paced,mixed; paced needs throughput), and for the API process
 * BENCH_ROLE and BENCH_AUDIT=0. Goals are printed, not enforced; exits 1 when the API answered anything but 2xx or
 * left a request unanswered.
 */
import { type ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { bundleBenchServer, withoutTsx } from '../apps/bff/scripts/build.ts';
import type { ApiReady } from './api/api-server.ts';
import type { CapturedAnswer } from './api/baseline-server.ts';
import { hey, type LoadResult, missingTools, wrk } from './api/load.ts';
import { CPUS, canPin, envInt, loadAverage, MIX_ALERTS, median, pin, verdict } from './common.ts';

const DURATION = envInt('BENCH_DURATION', 10);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 2);
const CONNECTIONS = envInt('BENCH_CONNECTIONS', 64);
const PACED_DURATION = envInt('BENCH_PACED_DURATION', 10);
const PACED_WORKERS = envInt('BENCH_PACED_WORKERS', 16);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'throughput,paced,mixed').split(','));
const WRITE_EVERY = 20;
const GOALS = { throughput: 1.0, pacedP99: 1.5, pacedMax: 2, moreLoadsWithWrites: 0.5, reportOfScore: 0.9 };
const ROUTES = [
  { name: 'GET /v1/users/{id}', suffix: '' },
  { name: 'GET …/credit-score', suffix: '/credit-score' },
  { name: 'GET …/credit-report', suffix: '/credit-report' },
  { name: 'GET …/offers', suffix: '/offers' },
];
const [SCORE_ROUTE, REPORT_ROUTE] = [1, 2];
const CPU = { servers: 0, generators: 1 };
type Server = 'express' | 'api';
/** Round r runs the servers in this order: alternated, so a slow minute of the host hits both. */
const orderOf = (round: number): Server[] => (round % 2 === 0 ? ['express', 'api'] : ['api', 'express']);

const cpuProfileArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/** A server process, built as `pnpm start` runs the API (bundled, plain node, no tsx), on the servers' CPU. */
const start = async <T>(file: string, env: Record<string, string>, first?: unknown) => {
  const child = fork(await bundleBenchServer(path.join(import.meta.dirname, 'api', file)), {
    // BENCH_CPU_PROF=<dir> writes the servers' V8 CPU profiles there, for finding where a route's CPU goes.
    execArgv: ['--enable-source-maps', ...withoutTsx(process.execArgv), ...cpuProfileArgs],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  pin(child.pid, CPU.servers);
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code} before it was ready`)));
    child.once('message', (message) => resolve(message as T));
    if (first !== undefined) child.send(first as never);
  });
  child.removeAllListeners('exit');
  return { child, ready };
};

/** A server's CPU time (µs) and, for the API, its read cache's loads so far: a run's differences count. */
const usageOf = (child: ChildProcess) =>
  new Promise<{ cpuUs: number; cacheLoads?: number }>((resolve) => {
    child.once('message', (message) => resolve(message as { cpuUs: number; cacheLoads?: number }));
    child.send('usage');
  });

/** Headers Node's HTTP layer writes itself (per connection or per answer): the baseline's server adds its own. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
/** The API's answer to `GET url`, body and header lines as sent, for the baseline to repeat. */
const capture = (base: string, pathOnly: string, headers: Record<string, string>): Promise<CapturedAnswer> =>
  new Promise((resolve, reject) => {
    http
      .get(`${base}${pathOnly}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`GET ${pathOnly}: ${res.statusCode} ${Buffer.concat(chunks)}`));
          const lines: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            const [name, value] = [res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string];
            if (!TRANSPORT_HEADERS.has(name.toLowerCase())) lines.push([name, value]);
          }
          resolve([pathOnly, Buffer.concat(chunks).toString('base64'), lines]);
        });
      })
      .on('error', reject);
  });

/** wrk's request(): the read routes in turn; with writes, every 20th request enrols a user or marks an alert read. */
const mixScript = (paths: string[], authorization: string, userId: string, writes: boolean) => `
local reads = { ${paths.map((p) => JSON.stringify(p)).join(', ')} }
local readHeaders = { ["Authorization"] = ${JSON.stringify(authorization)} }
local headers = { ["Authorization"] = ${JSON.stringify(authorization)}, ["Content-Type"] = "application/json" }
local run = ${JSON.stringify(Math.random().toString(36).slice(2, 10))}
math.randomseed(${Math.floor(Math.random() * 2 ** 31)})
local n = 0
request = function()
  n = n + 1
  if ${writes} and n % ${WRITE_EVERY} == 0 then
    if (n / ${WRITE_EVERY}) % 2 == 1 then
      local body = '{"externalUserId":"mix-' .. run .. '-' .. n .. '","email":"mix@example.test","firstName":"Mia","lastName":"Mix","ssn":"1234","dateOfBirth":"1985-04-12","address":{"street":"1 Mix St","city":"Springfield","state":"IL","zipCode":"62701"}}'
      return wrk.format("POST", "/v1/users/enroll", headers, body)
    end
    return wrk.format("PATCH", "/v1/users/${userId}/alerts/alt_mix" .. math.random(1, ${MIX_ALERTS}), headers, '{"status":"read"}')
  end
  return wrk.format("GET", reads[n % #reads + 1], readHeaders)
end
`;

interface Sample extends LoadResult {
  cpuPerRequest: number;
  loadsPer1000?: number;
}
const ratio = (api: number, express: number) => `${(api / express).toFixed(2)}×`;

const main = async (): Promise<number> => {
  const missing = missingTools(...(PHASES.has('paced') ? ['wrk', 'hey'] : ['wrk']));
  if (missing.length) {
    console.error(`bench:api needs wrk and hey on the PATH; missing: ${missing.join(', ')} (Debian: apt-get install wrk hey)`);
    return 1;
  }
  const loadAtStart = loadAverage();
  pin(process.pid, CPU.generators);
  const limits = { RATE_LIMIT_USER_OPS_PER_MIN: '100000000', RATE_LIMIT_AUTH_PER_MIN: '100000000' };
  const api = await start<ApiReady>('api-server.ts', { ...limits, BENCH_CHAIN_WORKER_CPU: String(CPU.generators) });
  const children: ChildProcess[] = [api.child];
  let failed = 0;
  try {
    const headers = { authorization: api.ready.authorization };
    const paths = ROUTES.map((r) => `/v1/users/${api.ready.userId}${r.suffix}`);
    const answers = await Promise.all(paths.map((p) => capture(api.ready.url, p, headers)));
    const baseline = await start<{ url: string }>('baseline-server.ts', {}, answers);
    children.push(baseline.child);
    const servers = { api, express: baseline };
    console.log(
      `database ${api.ready.db === 'postgres' ? 'PostgreSQL (throwaway schema)' : 'PGlite (in memory)'}; role ${api.ready.role}; ` +
        `node ${process.version}; ${CPUS} CPUs; ${canPin ? `servers on CPU ${CPU.servers}, wrk and hey on CPU ${CPU.generators}` : 'not pinned'}`,
    );
    console.log(
      `baseline Express 5 answering the API's captured bytes with its ${(answers[0]?.[2].length ?? 0) + 3} header lines; ` +
        `load average at start ${loadAtStart}; ${ROUNDS} round(s) × ${DURATION} s, ${CONNECTIONS} connections`,
    );

    const measure = async (server: Server, seconds: number, load: () => Promise<LoadResult>): Promise<Sample> => {
      const before = await usageOf(servers[server].child);
      const result = await load();
      const after = await usageOf(servers[server].child);
      const requests = result.reqPerSec * seconds;
      if (server === 'api') failed += result.failed;
      return {
        ...result,
        cpuPerRequest: (after.cpuUs - before.cpuUs) / requests,
        ...(after.cacheLoads === undefined
          ? {}
          : { loadsPer1000: (1000 * (after.cacheLoads - (before.cacheLoads ?? 0))) / requests }),
      };
    };
    const load = (server: Server, path: string, seconds: number, lua?: string) =>
      measure(server, seconds, () =>
        wrk(CPU.generators, { url: `${servers[server].ready.url}${path}`, connections: CONNECTIONS, seconds, headers, lua }),
      );
    const samples = new Map<string, Sample[]>();
    const add = (key: string, sample: Sample) => samples.set(key, [...(samples.get(key) ?? []), sample]);
    const med = (key: string, pick: (s: Sample) => number) => median((samples.get(key) ?? []).map(pick));
    const goals: string[] = [];

    if (PHASES.has('throughput')) {
      for (const p of paths) for (const server of orderOf(0)) await load(server, p, WARMUP);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, p] of paths.entries())
          for (const server of orderOf(round)) add(`${i}|${server}`, await load(server, p, DURATION));
      }
      console.log(
        '\n1. throughput (wrk; medians over rounds)\nroute                 Express req/s   API req/s   API/Express   CPU µs/request Express / API',
      );
      for (const [i, route] of ROUTES.entries()) {
        const [e, a] = [med(`${i}|express`, (s) => s.reqPerSec), med(`${i}|api`, (s) => s.reqPerSec)];
        const [ce, ca] = [med(`${i}|express`, (s) => s.cpuPerRequest), med(`${i}|api`, (s) => s.cpuPerRequest)];
        console.log(
          `${route.name.padEnd(20)} ${e.toFixed(0).padStart(14)} ${a.toFixed(0).padStart(11)} ${ratio(a, e).padStart(13)}   ${ce.toFixed(0)} / ${ca.toFixed(0)}`,
        );
        goals.push(
          `${route.name} throughput API/Express ${ratio(a, e)} (≥ ${GOALS.throughput}: ${verdict(a / e >= GOALS.throughput)})`,
        );
      }
      // The report is served from the same file on record as the score: reading it must cost about as much.
      const [score, report] = [SCORE_ROUTE, REPORT_ROUTE].map((i) => med(`${i}|api`, (s) => s.reqPerSec)) as [number, number];
      goals.push(
        `credit-report read speed ${ratio(report, score)} of credit-score's (≥ ${GOALS.reportOfScore}: ${verdict(report / score >= GOALS.reportOfScore)})`,
      );
    }

    if (PHASES.has('paced') && PHASES.has('throughput')) {
      const rates = ROUTES.map((_, i) => Math.round(med(`${i}|express`, (s) => s.reqPerSec) / 2));
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, p] of paths.entries()) {
          for (const server of orderOf(round)) {
            const paced = { url: `${servers[server].ready.url}${p}`, rate: rates[i] as number, workers: PACED_WORKERS, headers };
            add(
              `paced|${i}|${server}`,
              await measure(server, PACED_DURATION, () => hey(CPU.generators, { ...paced, seconds: PACED_DURATION })),
            );
          }
        }
      }
      console.log(
        `\n2. paced (hey -q, ${PACED_WORKERS} workers at half of Express's req/s; medians)\nroute                 rate/s   p99 ms Express / API   max ms Express / API`,
      );
      for (const [i, route] of ROUTES.entries()) {
        const pick = (server: Server, key: 'p99' | 'max') => med(`paced|${i}|${server}`, (s) => s[key]);
        const [p99, max] = [pick('api', 'p99') / pick('express', 'p99'), pick('api', 'max') / pick('express', 'max')];
        const p99s = `${pick('express', 'p99').toFixed(1)} / ${pick('api', 'p99').toFixed(1)} (${p99.toFixed(2)}×)`;
        const maxes = `${pick('express', 'max').toFixed(0)} / ${pick('api', 'max').toFixed(0)} (${max.toFixed(2)}×)`;
        console.log(`${route.name.padEnd(20)} ${String(rates[i]).padStart(7)}   ${p99s.padEnd(23)}${maxes}`);
        goals.push(
          `${route.name} paced p99 ${p99.toFixed(2)}× (≤ ${GOALS.pacedP99}: ${verdict(p99 <= GOALS.pacedP99)}), max ${max.toFixed(2)}× (≤ ${GOALS.pacedMax}: ${verdict(max <= GOALS.pacedMax)})`,
        );
      }
    }

    if (PHASES.has('mixed')) {
      const mix = (writes: boolean, seconds: number) =>
        load('api', paths[0] as string, seconds, mixScript(paths, headers.authorization, api.ready.userId, writes));
      await mix(true, WARMUP);
      const kept: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const pair: Record<string, Sample> = {};
        for (const writes of round % 2 === 0 ? [false, true] : [true, false]) {
          pair[String(writes)] = await mix(writes, DURATION);
          add(`mix|${writes}`, pair[String(writes)] as Sample);
        }
        // The round's two runs back to back: a drift of the host between rounds cancels.
        kept.push(((pair.true?.reqPerSec ?? 0) * (1 - 1 / WRITE_EVERY)) / (pair.false?.reqPerSec ?? 1));
      }
      const [readOnly, withWrites] = [false, true].map((writes) => ({
        reads: med(`mix|${writes}`, (s) => s.reqPerSec) * (writes ? 1 - 1 / WRITE_EVERY : 1),
        cpu: med(`mix|${writes}`, (s) => s.cpuPerRequest),
        loads: med(`mix|${writes}`, (s) => s.loadsPer1000 ?? 0),
      })) as [{ reads: number; cpu: number; loads: number }, { reads: number; cpu: number; loads: number }];
      const writeCpu = (withWrites.cpu - (1 - 1 / WRITE_EVERY) * readOnly.cpu) * WRITE_EVERY;
      console.log(`\n3. mixed load (wrk, the read routes in turn; with writes: 1 request in ${WRITE_EVERY})`);
      console.log(`  read-only     ${readOnly.reads.toFixed(0)} reads/s, ${readOnly.cpu.toFixed(0)} µs CPU/request`);
      console.log(
        `  with writes   ${withWrites.reads.toFixed(0)} reads/s, ${withWrites.cpu.toFixed(0)} µs CPU/request (a write ≈ ${writeCpu.toFixed(0)} µs)`,
      );
      console.log(
        `  read-cache loads per 1,000 requests: read-only ${readOnly.loads.toFixed(1)}, with writes ${withWrites.loads.toFixed(1)}`,
      );
      const keptMedian = median(kept);
      const range = `${(100 * Math.min(...kept)).toFixed(1)}–${(100 * Math.max(...kept)).toFixed(1)} %`;
      console.log(`  reads kept with writes: ${(100 * keptMedian).toFixed(1)} % (rounds ${range})`);
      const extra = withWrites.loads - readOnly.loads;
      goals.push(
        `mixed: read-cache loads per 1,000 requests ${withWrites.loads.toFixed(1)} with writes, ${readOnly.loads.toFixed(1)} read-only (at most ${GOALS.moreLoadsWithWrites} more: ${verdict(extra <= GOALS.moreLoadsWithWrites)})`,
      );
    }
    console.log(`\ngoals\n${goals.map((g) => `  ${g}`).join('\n')}\nload average at end ${loadAverage()}`);
    if (failed > 0) console.error(`FAIL: the API answered ${failed} requests with an error or not at all`);
    return failed > 0 ? 1 : 0;
  } finally {
    for (const child of children.reverse()) {
      // The API drops its schema on 'stop' (given 30 s); the baseline exits once disconnected.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      if (child === api.child) child.send('stop');
      else child.disconnect();
      await exited;
      clearTimeout(timer);
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
