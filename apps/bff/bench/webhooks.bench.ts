/**
 * Webhook delivery end to end, in phases: enrolments commit `user.enrolled` events, the real dispatcher fans them
 * out and POSTs them, signed, to a local HTTPS receiver. Per phase it prints committed events/s, deliveries/s
 * received while the load ran, the backlog (deliveries owed: committed × subscriptions − received) at each quarter
 * of the load window and at its end, how long the rest took to drain, and commit → receipt p50/p99/max.
 *
 *   pnpm bench:webhooks                                          # PGlite in memory
 *   DATABASE_URL=postgres://… pnpm bench:webhooks                # PostgreSQL, in throwaway schemas
 *   BENCH_BASELINE=/path/to/old/checkout DATABASE_URL=… pnpm bench:webhooks   # also runs that checkout's dispatcher
 *
 * Phases (BENCH_PHASES, default all): `paced` — BENCH_RATE events/s (200), one subscription: latency below
 * saturation; `unpaced` — BENCH_PRODUCERS (8) enrol as fast as they can, one subscription: can delivery keep up
 * with commits?; `fanout` — unpaced, BENCH_FANOUT (4) subscriptions on the same receiver: deliveries/s beyond the
 * commit rate. Each loads for BENCH_SECONDS (10) and then waits up to BENCH_DRAIN_SECONDS (60) for the rest.
 * WEBHOOK_CONCURRENCY, WEBHOOK_CONNECTIONS_PER_ORIGIN and WEBHOOK_POLL_INTERVAL_MS (250) pass through.
 *
 * Processes, so that neither the load nor the receiver takes CPU from the code being measured: the dispatcher,
 * the producer (enrolments) and the receiver are separate child processes (on PGlite, whose database lives in one
 * process, dispatcher and producer share one). When `taskset` exists (BENCH_PIN=0 turns it off) the dispatcher is
 * pinned alone to CPU 0 and producer, receiver and this coordinating process to CPU 1 (with 3+ CPUs the receiver
 * gets CPU 2); PostgreSQL is not ours to pin and runs wherever the kernel puts it. The producer also runs at a
 * lower priority (nice 10) so that on a shared CPU the receiver answers promptly, as a healthy remote receiver
 * would, instead of queueing behind enrolments.
 *
 * Baseline: BENCH_BASELINE names the root of another checkout with its dependencies installed (for example
 * `git worktree add /tmp/base HEAD && pnpm -C /tmp/base install --offline`); its `apps/bff/src` dispatcher runs
 * the same phases first, against its own schema, with this tree's producer and receiver.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import selfsigned from 'selfsigned';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const RATE = envInt('BENCH_RATE', 200);
const SECONDS = envInt('BENCH_SECONDS', 10);
const DRAIN_SECONDS = envInt('BENCH_DRAIN_SECONDS', 60);
const PRODUCERS = envInt('BENCH_PRODUCERS', 8);
const FANOUT = envInt('BENCH_FANOUT', 4);
const PHASES = (process.env.BENCH_PHASES ?? 'paced,unpaced,fanout').split(',');
const DATABASE_URL = process.env.DATABASE_URL;
const HERE = import.meta.dirname;
const THIS_SRC = path.resolve(HERE, '../src');

// ---- pinning -------------------------------------------------------------------------------------------------------

const cpus = os.availableParallelism();
const canPin = (() => {
  if (process.env.BENCH_PIN === '0' || cpus < 2) return false;
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const CPU = { dispatcher: 0, producer: 1, receiver: cpus >= 3 ? 2 : 1, coordinator: 1 };
const pin = (pid: number | undefined, cpu: number) => {
  if (canPin && pid) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
};

// ---- child processes -----------------------------------------------------------------------------------------------

interface Child {
  process: ChildProcess;
  ask<T>(message: unknown): Promise<T>;
}

const start = async (file: string, env: Record<string, string | undefined>, cpu: number, priority = 0): Promise<Child> => {
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each app process there when it stops.
  const profile =
    process.env.BENCH_CPU_PROF && file === 'app.ts' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = fork(path.join(HERE, 'webhooks', file), {
    env: { ...process.env, ...env },
    stdio: 'inherit',
    execArgv: [...process.execArgv, ...profile],
  });
  pin(child.pid, cpu);
  if (priority && child.pid) os.setPriority(child.pid, priority);
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) {
      console.error(`${file} exited with ${code}`);
      process.exit(1);
    }
  });
  const ask = <T>(message: unknown) =>
    new Promise<T>((resolve) => {
      child.once('message', (answer) => resolve(answer as T));
      if (message !== undefined) child.send(message as never);
    });
  return { process: child, ask };
};

// ---- statistics ----------------------------------------------------------------------------------------------------

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface PhaseResult {
  committedPerS: number;
  deliveredPerS: number;
  backlog: number[];
  drainS: number | undefined;
  owedAfterDrain: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU the dispatcher's process used per delivery received (on PGlite that process also runs producer and database). */
  cpuUsPerDelivery: number;
  /** The receiver's answer time as the dispatcher measured it (p50/p99 ms). */
  answers?: { p50: number; p99: number };
}

const summarise = (
  commits: { users: string[]; times: number[] },
  receipts: { paths: string[]; users: string[]; times: number[] },
  subscriptions: number,
  windowStart: number,
  windowEnd: number,
  drainedAt: number | undefined,
  cpuMs: number,
): PhaseResult => {
  const committedAt = new Map(commits.users.map((u, i) => [u, commits.times[i] as number]));
  const latencies: number[] = [];
  const seen = new Set<string>();
  const receivedTimes: number[] = [];
  receipts.users.forEach((user, i) => {
    const key = `${receipts.paths[i]}|${user}`;
    const at = committedAt.get(user);
    // Retries and repeats (at-least-once) count once: the first arrival is the receipt.
    if (at === undefined || seen.has(key)) return;
    seen.add(key);
    latencies.push((receipts.times[i] as number) - at);
    receivedTimes.push(receipts.times[i] as number);
  });
  latencies.sort((a, b) => a - b);
  const sortedCommits = [...commits.times].sort((a, b) => a - b);
  receivedTimes.sort((a, b) => a - b);
  const countUntil = (sorted: number[], t: number) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sorted[mid] as number) <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const owedAt = (t: number) => countUntil(sortedCommits, t) * subscriptions - countUntil(receivedTimes, t);
  const span = windowEnd - windowStart;
  return {
    committedPerS: commits.users.length / (span / 1000),
    deliveredPerS: countUntil(receivedTimes, windowEnd) / (span / 1000),
    backlog: [0.25, 0.5, 0.75, 1].map((f) => owedAt(windowStart + f * span)),
    drainS: drainedAt === undefined ? undefined : Math.max(0, drainedAt - windowEnd) / 1000,
    owedAfterDrain: commits.users.length * subscriptions - seen.size,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    cpuUsPerDelivery: seen.size > 0 ? (cpuMs * 1000) / seen.size : 0,
  };
};

// ---- one variant: a dispatcher build run through every phase ------------------------------------------------------

const runVariant = async (label: string, dispatcherSrc: string, receiver: Child, receiverUrl: string, caFile: string) => {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const env = { BENCH_CA_FILE: caFile, BENCH_SCHEMA: schema };
  const children: Child[] = [];
  let producer: Child;
  let dispatcherProcess: Child;
  if (DATABASE_URL) {
    // The producer migrates the schema first; the dispatcher then starts on it.
    producer = await start('app.ts', { ...env, BENCH_ROLES: 'produce', BENCH_SRC: THIS_SRC }, CPU.producer, 10);
    await producer.ask(undefined);
    const dispatcher = await start('app.ts', { ...env, BENCH_ROLES: 'dispatch', BENCH_SRC: dispatcherSrc }, CPU.dispatcher);
    await dispatcher.ask(undefined);
    children.push(producer, dispatcher);
    dispatcherProcess = dispatcher;
  } else {
    producer = await start('app.ts', { ...env, BENCH_ROLES: 'dispatch,produce', BENCH_SRC: dispatcherSrc }, CPU.dispatcher);
    await producer.ask(undefined);
    children.push(producer);
    dispatcherProcess = producer;
  }

  const phase = async (name: string, rate: number | undefined, seconds: number, subscriptions: number) => {
    const { clientId } = await producer.ask<{ clientId: string }>({ cmd: 'setup', phase: name, subscriptions, receiverUrl });
    await receiver.ask('take');
    const cpuBefore = await dispatcherProcess.ask<{ ms: number }>({ cmd: 'cpu' });
    const windowStart = performance.timeOrigin + performance.now();
    const commits = await producer.ask<{ users: string[]; times: number[] }>({
      cmd: 'produce',
      clientId,
      phase: name,
      rate,
      seconds,
      producers: PRODUCERS,
    });
    const windowEnd = performance.timeOrigin + performance.now();
    const owed = commits.users.length * subscriptions;
    const receipts = { paths: [] as string[], users: [] as string[], times: [] as number[] };
    const drainDeadline = Date.now() + DRAIN_SECONDS * 1000;
    let drainedAt: number | undefined;
    for (;;) {
      const got = await receiver.ask<typeof receipts>('take');
      receipts.paths.push(...got.paths);
      receipts.users.push(...got.users);
      receipts.times.push(...got.times);
      if (new Set(receipts.users.map((u, i) => `${receipts.paths[i]}|${u}`)).size >= owed) {
        // The drain ends at the last receipt, not at the moment we looked.
        drainedAt = receipts.times.reduce((a, b) => Math.max(a, b), windowEnd);
        break;
      }
      if (Date.now() > drainDeadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const cpuAfter = await dispatcherProcess.ask<{ ms: number }>({ cmd: 'cpu' });
    // Recorded attempts lag the receipts by a few milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answers = await producer.ask<{ p50: number; p99: number }>({ cmd: 'answers', clientId });
    return {
      ...summarise(commits, receipts, subscriptions, windowStart, windowEnd, drainedAt, cpuAfter.ms - cpuBefore.ms),
      answers,
    };
  };

  // Warm-up (not reported): JIT, connection pools, the first TLS handshakes.
  await phase('warmup', 100, 2, 1);
  const rows: [string, PhaseResult][] = [];
  for (const name of PHASES) {
    if (name === 'paced') rows.push([`paced ${RATE}/s, 1 sub`, await phase(name, RATE, SECONDS, 1)]);
    if (name === 'unpaced') rows.push(['unpaced, 1 sub', await phase(name, undefined, SECONDS, 1)]);
    if (name === 'fanout') rows.push([`unpaced, ${FANOUT} subs`, await phase(name, undefined, SECONDS, FANOUT)]);
  }
  for (const child of children.reverse()) await child.ask({ cmd: 'stop' });
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  }
  return rows.map(([phaseLabel, result]) => ({ label, phaseLabel, result }));
};

// ---- main ----------------------------------------------------------------------------------------------------------

const main = async () => {
  pin(process.pid, CPU.coordinator);
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const caFile = path.join(tmpdir(), `bench-webhook-ca-${process.pid}.pem`);
  writeFileSync(caFile, pems.cert);
  const receiver = await start('receiver.ts', {}, CPU.receiver);
  const { port } = await receiver.ask<{ port: number }>({ cert: pems.cert, key: pems.private });
  const receiverUrl = `https://127.0.0.1:${port}/bench`;

  const variants: [string, string][] = [];
  if (process.env.BENCH_BASELINE) variants.push(['baseline', path.resolve(process.env.BENCH_BASELINE, 'apps/bff/src')]);
  variants.push(['this tree', THIS_SRC]);

  let database = 'PGlite (in memory)';
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    await admin.end();
    database = `PostgreSQL ${rows[0]?.server_version}`;
  }
  console.log(`database   ${database}; ${cpus} CPUs`);
  console.log(
    canPin
      ? `pinning    dispatcher CPU ${CPU.dispatcher}; producer CPU ${CPU.producer}; receiver CPU ${CPU.receiver}`
      : 'pinning    none (no taskset, one CPU, or BENCH_PIN=0)',
  );
  console.log(
    `settings   ${SECONDS} s per phase, ${PRODUCERS} producers, WEBHOOK_CONCURRENCY=${process.env.WEBHOOK_CONCURRENCY ?? 'default'}, WEBHOOK_CONNECTIONS_PER_ORIGIN=${process.env.WEBHOOK_CONNECTIONS_PER_ORIGIN ?? 'default'}, poll ${process.env.WEBHOOK_POLL_INTERVAL_MS ?? 250} ms`,
  );
  console.log('');
  const header = [
    'code',
    'phase',
    'committed/s',
    'delivered/s',
    'backlog 25/50/75/100%',
    'drain',
    'p50 ms',
    'p99 ms',
    'max ms',
    'answer p50/p99 ms',
    'dispatcher CPU µs/delivery',
  ];
  const widths = [10, 20, 12, 12, 24, 10, 8, 8, 8, 18, 8];
  const line = (cells: string[]) =>
    console.log(
      cells
        .map((c, i) => c.padEnd(widths[i] ?? 8))
        .join(' ')
        .trimEnd(),
    );
  line(header);
  for (const [label, src] of variants) {
    for (const { phaseLabel, result: r } of await runVariant(label, src, receiver, receiverUrl, caFile)) {
      line([
        label,
        phaseLabel,
        r.committedPerS.toFixed(0),
        r.deliveredPerS.toFixed(0),
        r.backlog.join('/'),
        r.drainS === undefined ? `${r.owedAfterDrain} left` : `${r.drainS.toFixed(1)} s`,
        r.p50.toFixed(0),
        r.p99.toFixed(0),
        r.max.toFixed(0),
        r.answers ? `${r.answers.p50.toFixed(0)}/${r.answers.p99.toFixed(0)}` : '',
        r.cpuUsPerDelivery.toFixed(0),
      ]);
    }
  }
  receiver.process.disconnect();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
