/**
 * What reading a JSON body costs the server, with body-parser's `express.json` and with the API's own reader in front
 * of it (src/http/json-body.ts), nothing else in the request:
 *
 *   pnpm --filter @credit/bff exec tsx bench/body-reader.bench.ts      # BENCH_DURATION (5 s), BENCH_ROUNDS (3)
 *
 * Each reader serves from a process of its own (pinned to CPU 0 when taskset and 2+ CPUs are there): Express 5, the
 * reader, and a handler that answers 204. wrk (CPU 1, 64 connections) POSTs an enrolment's ~300-byte JSON body.
 * Rounds alternate the order. Prints each reader's req/s and server CPU per request (µs, from the process's own
 * `process.cpuUsage()`), their medians, and the difference: what one body costs less.
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { plainJsonBody } from '../src/http/json-body.ts';
import { hasCommand, openGenerator, type Pin } from './api/load.ts';

const DURATION = Number(process.env.BENCH_DURATION ?? '5');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? '3');
const READERS = ['body-parser', 'own reader'] as const;
type Reader = (typeof READERS)[number];

const BODY = JSON.stringify({
  externalUserId: 'body-bench-0001',
  email: 'bench@example.test',
  firstName: 'Jane',
  lastName: 'Doe',
  ssn: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
});

/** The server process: one reader, then 204 (500 if the body did not arrive, so a broken reader shows as errors). */
const serve = (reader: Reader) => {
  const bodyParser = express.json({ limit: '1mb', strict: true });
  const app = express();
  app.use(reader === 'body-parser' ? bodyParser : plainJsonBody(1024 * 1024, bodyParser));
  app.use((req, res) => {
    res.status(req.body?.externalUserId ? 204 : 500).end();
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuUs: user + system });
    }
    if (message === 'stop') server.close(() => process.exit(0));
  });
};

const canPin = os.availableParallelism() >= 2 && hasCommand('taskset');
const pin: Pin = {
  prefix: (cpu) => (canPin ? ['taskset', '-c', String(cpu)] : []),
  process: () => {},
};

const ask = <T>(child: ChildProcess, message: string, key: string): Promise<T> =>
  new Promise((resolve) => {
    const onMessage = (answer: unknown) => {
      if (typeof answer === 'object' && answer !== null && key in answer) {
        child.off('message', onMessage);
        resolve(answer as T);
      }
    };
    child.on('message', onMessage);
    if (message) child.send(message);
  });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const main = async () => {
  const servers = new Map<Reader, { child: ChildProcess; url: string }>();
  for (const reader of READERS) {
    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BODY_BENCH_READER: reader },
      execArgv: ['--import', 'tsx'],
    });
    const { port } = await ask<{ port: number }>(child, '', 'port');
    if (canPin && child.pid) {
      const { execFileSync } = await import('node:child_process');
      execFileSync('taskset', ['-a', '-p', '-c', '0', String(child.pid)], { stdio: 'ignore' });
    }
    servers.set(reader, { child, url: `http://127.0.0.1:${port}/v1/users/enroll` });
  }
  const generator = openGenerator(pin, 1);
  if (generator.name !== 'wrk') throw new Error('body-reader.bench needs wrk (apt-get install wrk)');
  const luaRequest = `request = function() return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, ${JSON.stringify(BODY)}) end`;
  const samples = new Map<Reader, { rps: number; cpu: number }[]>(READERS.map((r) => [r, []]));
  const run = async (reader: Reader, measured: boolean) => {
    const { child, url } = servers.get(reader) as { child: ChildProcess; url: string };
    const before = await ask<{ cpuUs: number }>(child, 'cpu', 'cpuUs');
    const result = await generator.run({ url, connections: 64, duration: DURATION, timeout: 2, headers: {}, luaRequest });
    const after = await ask<{ cpuUs: number }>(child, 'cpu', 'cpuUs');
    if (result.non2xx + result.errors > 0) throw new Error(`${reader}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    if (measured)
      samples.get(reader)?.push({ rps: result.reqPerSec, cpu: (after.cpuUs - before.cpuUs) / (result.reqPerSec * DURATION) });
  };
  try {
    console.log(`body reader: wrk, 64 connections, ${DURATION} s × ${ROUNDS} alternated rounds; pinned: ${canPin}`);
    for (const reader of READERS) await run(reader, false); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const reader of round % 2 === 0 ? READERS : [...READERS].reverse()) await run(reader, true);
    }
    for (const reader of READERS) {
      const s = samples.get(reader) ?? [];
      console.log(
        `  ${reader.padEnd(12)} ${median(s.map((x) => x.rps)).toFixed(0)} req/s, ${median(s.map((x) => x.cpu)).toFixed(1)} µs CPU/request (runs ${s.map((x) => x.cpu.toFixed(1)).join(', ')})`,
      );
    }
    const [parser, own] = READERS.map((r) => median((samples.get(r) ?? []).map((x) => x.cpu))) as [number, number];
    console.log(`  the own reader saves ${(parser - own).toFixed(1)} µs per body (${(own / parser).toFixed(2)}× the CPU)`);
  } finally {
    generator.close();
    for (const { child } of servers.values()) child.send('stop');
  }
};

if (process.env.BODY_BENCH_READER) serve(process.env.BODY_BENCH_READER as Reader);
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
