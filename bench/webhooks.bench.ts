/**
 * `pnpm bench:webhooks`: webhook delivery end to end. Enrolments commit `user.enrolled` events; the real dispatcher
 * fans them out and POSTs them, signed, to a local HTTPS receiver.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:webhooks   # PostgreSQL, a throwaway schema
 *   BENCH_SECONDS=3 pnpm bench:webhooks                                        # in-memory PGlite, short
 *
 * Phases (BENCH_PHASES): `paced`, BENCH_RATE (200) events/s and one subscription: latency below saturation;
 * `unpaced`, BENCH_PRODUCERS (8) enrolling as fast as they can, one subscription; `fanout`, unpaced with BENCH_FANOUT
 * (4) subscriptions. Each loads for BENCH_SECONDS (10), then waits up to 60 s for the rest. The baseline is what is
 * owed: every committed event once per subscription. Per phase: committed/s, deliveries owed/s and delivered/s while
 * the load ran, the backlog at each quarter of the load, the drain after it, commit → receipt p50/p99/max, and the
 * dispatcher's CPU per delivery. The dispatcher, the producer and the receiver are processes of their own (on
 * PGlite dispatcher and producer share one); the dispatcher alone on CPU 0, the others on CPU 1 (the receiver on CPU 2
 * when there is one), the producer at nice 10 so that the receiver answers promptly, as a healthy remote one would.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import selfsigned from 'selfsigned';
import { CPUS, canPin, envInt, percentile, pin, verdict } from './common.ts';

const RATE = envInt('BENCH_RATE', 200);
const SECONDS = envInt('BENCH_SECONDS', 10);
const PRODUCERS = envInt('BENCH_PRODUCERS', 8);
const FANOUT = envInt('BENCH_FANOUT', 4);
const PHASES = (process.env.BENCH_PHASES ?? 'paced,unpaced,fanout').split(',');
const DATABASE_URL = process.env.DATABASE_URL;
const CPU = { dispatcher: 0, producer: 1, receiver: CPUS >= 3 ? 2 : 1 };

/** A child process of the bench, asked one question at a time over IPC. */
const start = (file: string, env: Record<string, string>, cpu: number, niceness = 0) => {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'webhooks', file), { env: { ...process.env, ...env } });
  pin(child.pid, cpu);
  if (niceness && child.pid) os.setPriority(child.pid, niceness);
  child.once('exit', (code) => {
    if (code) {
      console.error(`${file} exited with ${code}`);
      process.exit(1);
    }
  });
  const ask = <T>(message?: unknown) =>
    new Promise<T>((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      if (message !== undefined) child.send(message as never);
    });
  return { child, ask };
};

pin(process.pid, CPU.producer);
const tls = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
  keyType: 'ec',
  extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
});
const caFile = path.join(os.tmpdir(), `bench-webhook-ca-${process.pid}.pem`);
writeFileSync(caFile, tls.cert);
const receiver = start('receiver.ts', {}, CPU.receiver);
const { port } = await receiver.ask<{ port: number }>({ cert: tls.cert, key: tls.private });
const schema = `bench_${randomBytes(6).toString('hex')}`;
const env = { BENCH_CA_FILE: caFile, BENCH_SCHEMA: schema };
// On PostgreSQL the producer migrates the schema first; the dispatcher then starts on it.
const producer = start('app.ts', { ...env, BENCH_ROLES: DATABASE_URL ? 'produce' : 'dispatch,produce' }, CPU.producer, 10);
await producer.ask();
const dispatcher = DATABASE_URL ? start('app.ts', { ...env, BENCH_ROLES: 'dispatch' }, CPU.dispatcher) : producer;
if (DATABASE_URL) await dispatcher.ask();

const phase = async (name: string, rate: number | undefined, subscriptions: number, seconds: number) => {
  const setup = { cmd: 'setup', phase: name, subscriptions, receiverUrl: `https://127.0.0.1:${port}/bench` };
  const { clientId } = await producer.ask<{ clientId: string }>(setup);
  await receiver.ask('take');
  const cpuBefore = await dispatcher.ask<{ ms: number }>({ cmd: 'cpu' });
  const windowStart = performance.timeOrigin + performance.now();
  const produce = { cmd: 'produce', clientId, phase: name, rate, seconds, producers: PRODUCERS };
  const commits = await producer.ask<{ users: string[]; times: number[] }>(produce);
  const windowEnd = performance.timeOrigin + performance.now();
  const owed = commits.users.length * subscriptions;
  // Retries (at least once) count once: the first arrival of a (subscription, user) is its receipt.
  const firstArrival = new Map<string, number>();
  for (const deadline = Date.now() + 60_000; firstArrival.size < owed && Date.now() < deadline; ) {
    const got = await receiver.ask<{ keys: string[]; times: number[] }>('take');
    got.keys.forEach((key, i) => {
      if (!firstArrival.has(key)) firstArrival.set(key, got.times[i] as number);
    });
    if (firstArrival.size < owed) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const cpuAfter = await dispatcher.ask<{ ms: number }>({ cmd: 'cpu' });
  const committedAt = new Map(commits.users.map((user, i) => [user, commits.times[i] as number]));
  const received = [...firstArrival.values()].sort((a, b) => a - b);
  const latencies = [...firstArrival].map(([key, at]) => at - (committedAt.get(key.split('|')[1] as string) ?? at));
  const span = (windowEnd - windowStart) / 1000;
  const until = (times: number[], t: number) => times.filter((at) => at <= t).length;
  const backlog = [0.25, 0.5, 0.75, 1].map((f) => {
    const t = windowStart + f * (windowEnd - windowStart);
    return Math.max(0, until(commits.times, t) * subscriptions - until(received, t));
  });
  const deliveredPerS = until(received, windowEnd) / span;
  const drained = firstArrival.size >= owed;
  return [
    name === 'paced' ? `paced ${RATE}/s, 1 sub` : `unpaced, ${subscriptions} sub${subscriptions > 1 ? 's' : ''}`,
    (commits.users.length / span).toFixed(0),
    (owed / span).toFixed(0),
    deliveredPerS.toFixed(0),
    backlog.join('/'),
    drained
      ? `${(Math.max(0, (received.at(-1) ?? windowEnd) - windowEnd) / 1000).toFixed(1)} s`
      : `${owed - firstArrival.size} left`,
    [0.5, 0.99, 1].map((p) => percentile(latencies, p).toFixed(0)).join(' / '),
    ((1000 * (cpuAfter.ms - cpuBefore.ms)) / Math.max(1, firstArrival.size)).toFixed(0),
    verdict(drained && deliveredPerS >= 0.95 * (owed / span)),
  ];
};

try {
  let database = 'PGlite (in memory)';
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    database = `PostgreSQL ${(await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version}`;
    await admin.end();
  }
  console.log(
    `${database}; ${CPUS} CPUs; ${canPin ? `dispatcher on CPU ${CPU.dispatcher}` : 'not pinned'}; ${SECONDS} s a phase, ${PRODUCERS} producers`,
  );
  await phase('warmup', 100, 1, 2); // JIT, pools, the first TLS handshakes
  const header = [
    'phase',
    'committed/s',
    'owed/s',
    'delivered/s',
    'backlog 25/50/75/100 %',
    'drain',
    'p50/p99/max ms',
    'CPU µs/delivery',
    'keeps up',
  ];
  const widths = [20, 12, 8, 12, 24, 10, 18, 16, 8];
  const line = (cells: string[]) =>
    console.log(
      cells
        .map((c, i) => c.padEnd(widths[i] ?? 8))
        .join(' ')
        .trimEnd(),
    );
  line(header);
  for (const name of PHASES) {
    if (name === 'paced') line(await phase(name, RATE, 1, SECONDS));
    if (name === 'unpaced') line(await phase(name, undefined, 1, SECONDS));
    if (name === 'fanout') line(await phase(name, undefined, FANOUT, SECONDS));
  }
} finally {
  if (dispatcher !== producer) await dispatcher.ask({ cmd: 'stop' });
  await producer.ask({ cmd: 'stop' });
  receiver.child.disconnect();
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
}
