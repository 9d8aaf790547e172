/**
 * `pnpm bench:monitoring`: monitoring cycles at scale, on PostgreSQL, against `pnpm bureau` over HTTP.
 *
 *   BENCH_USERS=100000 BENCH_PHASES=cycles pnpm bench:monitoring   # PostgreSQL at DATABASE_URL (default …/test)
 *   BENCH_USERS=2000 BENCH_CAP_SECONDS=5 pnpm bench:monitoring     # short
 *
 * Phases, each population seeded in bulk (apps/bff/test/helpers/seed-users.ts) in one throwaway schema: one worker
 * refreshes every user once (the first pull after verification); two workers do the same for a second population
 * (its baseline is the one-worker phase); two workers run that population's next period (a regular refresh); then the
 * cap run: two workers with BUREAU_MAX_PER_SECOND=BENCH_CAP (150) for BENCH_CAP_SECONDS (30), pulls/s against the cap
 * (lowered to a quarter of the two workers' rate when they cannot reach twice the cap here). BENCH_PHASES=cycles or
 * cap runs only those. Workers are `ROLE=worker` instances of src/main.ts sharing the cap through REDIS_URL
 * (redis://127.0.0.1:6379/9). Per phase: users/s against the target (100,000 in 5 minutes), CPU per user of the
 * workers, the bureau and the workers' own PostgreSQL sessions, worker RSS, rows and bytes added per user; then the
 * rows per user held once retention keeps pace; then the triggers' cost, 1 % of the files reported changed. Worker i runs on CPU i, the bureau and this process on the last CPU.
 * Before and after, the host's speed (bench/host-probe.ts): a fixed loop and a loopback round trip's CPU. The workers
 * batch their pulls (BUREAU_BATCH_PULLS=true, MONITORING_CONCURRENCY=50: one request of 50) unless BENCH_BATCH_PULLS=false
 * (16 in flight, one request each); BENCH_CONCURRENCY overrides the concurrency.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { generateCreditFile } from '../apps/bff/src/bureau/sandbox/generate-file.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import { openPostgres } from '../apps/bff/src/db/postgres.ts';
import { systemClock } from '../apps/bff/src/lib/clock.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { createClient } from '../apps/bff/src/modules/clients/service.ts';
import { SIGNIFICANT_CHANGE } from '../apps/bff/src/modules/credit/score-change.ts';
import { detectAlerts } from '../apps/bff/src/modules/monitoring/file-diff.ts';
import { type FileSnapshot, snapshotOf } from '../apps/bff/src/modules/monitoring/file-snapshot.ts';
import { intakeTriggers } from '../apps/bff/src/modules/monitoring/trigger-feed.ts';
import { retentionAgesDays } from '../apps/bff/src/retention/policy.ts';
import { seedMonitoredUsers } from '../apps/bff/test/helpers/seed-users.ts';
import { CPUS, envInt, pin, verdict } from './common.ts';
import { describeHost, probeHost } from './host-probe.ts';
import { cpuMs, rssMb, startBureau, startWorker, type WorkerProcess } from './monitoring/processes.ts';

const USERS = envInt('BENCH_USERS', 100_000);
const CAP = envInt('BENCH_CAP', 150);
const CAP_SECONDS = envInt('BENCH_CAP_SECONDS', 30);
const PHASES = (process.env.BENCH_PHASES ?? 'cycles,cap').split(',');
/** The workers' BUREAU_BATCH_PULLS: monitoring pulls in one request per batch (BENCH_BATCH_PULLS=false: one each). */
const BATCH_PULLS = process.env.BENCH_BATCH_PULLS !== 'false';
/** The workers' MONITORING_CONCURRENCY: with batching, 50 pulls in flight fill one request (MAX_BUREAU_BATCH_PULLS). */
const CONCURRENCY = process.env.BENCH_CONCURRENCY ?? (BATCH_PULLS ? '50' : '16');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGET_PER_S = 100_000 / 300;
const TABLES = ['users', 'credit_snapshots', 'score_history', 'outbox_events', 'alerts', 'monitoring_alert_keys'] as const;
type Table = (typeof TABLES)[number];
type Sizes = Record<Table, { rows: number; bytes: number }>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const schema = `bench_mon_${randomBytes(5).toString('hex')}`;
const schemaUrl = new URL(DATABASE_URL);
schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
// Names the workers' PostgreSQL sessions, so that their backends' CPU can be told from other clients'.
schemaUrl.searchParams.set('application_name', schema);
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`create schema ${schema}`);
const config = loadConfig({ DATABASE_URL: schemaUrl.toString(), LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
const db = await openPostgres({ connectionString: DATABASE_URL, schema, max: 4 });
const ctx = await buildContext({ config, db, logger: createLogger('silent') });
pin(process.pid, CPUS - 1);
const bureauKey = `bk_bench_${randomBytes(12).toString('hex')}`;
const bureau = await startBureau(bureauKey, CPUS - 1);
const running: WorkerProcess[] = [];

const measure = async (): Promise<Sizes> => {
  const sizes = {} as Sizes;
  for (const table of TABLES) {
    const { rows } = await admin.query<{ rows: string; bytes: string }>(
      `select (select count(*) from ${schema}.${table}) as rows, pg_total_relation_size('${schema}.${table}') as bytes`,
    );
    sizes[table] = { rows: Number(rows[0]?.rows), bytes: Number(rows[0]?.bytes) };
  }
  return sizes;
};

/** A population of `count` verified users, not due yet: the workers start idle, their RSS read before any work. */
const seed = async (label: string, count: number) => {
  const { client } = await createClient(db, systemClock, 'sandbox', { name: `Bench ${label}`, contactEmail: 'ops@bank.test' });
  await seedMonitoredUsers(ctx, { clientId: client.id, count, dueAt: new Date('2999-01-01T00:00:00Z'), prefix: label });
  await admin.query(`analyze ${schema}.users`);
  return client.id;
};
/**
 * Makes the client's users due shortly: their next period starts for all of them at once. The bench's own bulk update
 * leaves a dead version of every row, which a production table (whose rows come due by the clock, last written a
 * period earlier and vacuumed since) does not hold: the tables are vacuumed before the users come due, so the workers'
 * sessions do not pay for pruning what the bench wrote.
 */
const release = async (clientId: string): Promise<number> => {
  const leadMs = 5_000 + USERS / 5;
  const dueAt = new Date(Date.now() + leadMs);
  await admin.query(
    `update ${schema}.users set monitoring_anchor_at = $3::timestamptz - monitoring_period * $2::interval,
       monitoring_due_at = $3, monitoring_next_attempt_at = $3 where client_id = $1`,
    [clientId, `${(config.MONITORING_INTERVAL ?? 30 * 86_400_000) / 1000} seconds`, dueAt],
  );
  for (const table of TABLES) await admin.query(`vacuum (analyze) ${schema}.${table}`);
  if (Date.now() > dueAt.getTime()) console.log(`(vacuum outlasted the ${leadMs} ms lead: the phase started during it)`);
  return dueAt.getTime();
};
const startWorkers = async (count: number, cap: number) => {
  const workers: WorkerProcess[] = [];
  for (let i = 0; i < count; i++) {
    const env = { DATABASE_URL: schemaUrl.toString(), REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9' };
    const bureauEnv = {
      BUREAU_URL: bureau.url,
      BUREAU_API_KEY: bureauKey,
      BUREAU_MAX_PER_SECOND: String(cap),
      BUREAU_BATCH_PULLS: String(BATCH_PULLS),
      MONITORING_CONCURRENCY: CONCURRENCY,
    };
    workers.push(await startWorker({ ...env, ...bureauEnv, MONITORING_POLL_INTERVAL_MS: '200' }, i));
  }
  running.push(...workers);
  await sleep(1_500); // connections opened, first idle poll done: what a worker weighs before any work
  return workers;
};

interface Cycle {
  label: string;
  seconds: number;
  cpu: { workers: number; bureau: number; postgres: number };
  rss: string;
  added: Sizes;
  problems: number;
}

/** Releases the client's users into period `period + 1` and waits until none is left behind. */
const cycle = async (label: string, workers: WorkerProcess[], clientId: string, period: number): Promise<Cycle> => {
  const before = await measure();
  const rss = workers.map((w) => ({ start: rssMb(w.pid), peak: rssMb(w.pid) }));
  const workerCpu = () => workers.reduce((sum, w) => sum + (cpuMs(w.pid) ?? 0), 0);
  // Backend pid → [CPU when first seen, CPU last seen]: sessions that come and go still count.
  const backends = new Map<number, [number, number]>();
  const sampleBackends = async (first: boolean) => {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [schema]);
    for (const { pid } of rows) {
      const now = cpuMs(pid);
      if (now === undefined) continue;
      const seen = backends.get(pid);
      if (seen) seen[1] = now;
      else backends.set(pid, [first ? now : 0, now]);
    }
  };
  const dueAt = await release(clientId);
  const [workersBefore, bureauBefore, problemsBefore] = [workerCpu(), cpuMs(bureau.pid) ?? 0, workers.map((w) => w.problems())];
  await sampleBackends(true);
  await sleep(Math.max(0, dueAt - Date.now()));
  const started = Date.now();
  for (let left = USERS; left > 0; ) {
    await sleep(500);
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from ${schema}.users where client_id = $1 and monitoring_period <= $2`,
      [clientId, period],
    );
    left = rows[0]?.n ?? 0;
    if (Date.now() - started > 1_800_000) throw new Error(`${label}: ${left} users still not refreshed after 30 minutes`);
    await sampleBackends(false);
    workers.forEach((w, i) => {
      const entry = rss[i];
      if (entry) entry.peak = Math.max(entry.peak, rssMb(w.pid));
    });
  }
  const seconds = (Date.now() - started) / 1000;
  await sampleBackends(false);
  const cpu = {
    workers: (workerCpu() - workersBefore) / USERS,
    bureau: ((cpuMs(bureau.pid) ?? 0) - bureauBefore) / USERS,
    postgres: [...backends.values()].reduce((sum, [first, last]) => sum + last - first, 0) / USERS,
  };
  await sleep(1_000);
  const after = await measure();
  const added = Object.fromEntries(
    TABLES.map((t) => [t, { rows: after[t].rows - before[t].rows, bytes: after[t].bytes - before[t].bytes }]),
  ) as Sizes;
  return {
    label,
    seconds,
    cpu,
    rss: rss.map((m, i) => `${fmt(m.start)} → ${fmt(m.peak)} → ${fmt(rssMb(workers[i]?.pid))}`).join('; '),
    added,
    problems: workers.reduce((sum, w, i) => sum + w.problems() - (problemsBefore[i] ?? 0), 0),
  };
};

/** The share of files a trigger phase reports changed: 1 % a day. */
const TRIGGER_SHARE = 0.01;

/**
 * A day's triggers: 1 % of the client's users reported changed, taken in through the feed's own intake (as the worker
 * stores a page it read), then pulled between periods. CPU per triggered pull, and per customer-day at that share.
 */
const triggerCycle = async (workers: WorkerProcess[], clientId: string) => {
  const { rows } = await admin.query<{ id: string }>(`select id from ${schema}.users where client_id = $1 order by id limit $2`, [
    clientId,
    Math.max(1, Math.round(USERS * TRIGGER_SHARE)),
  ]);
  const workerCpu = () => workers.reduce((sum, w) => sum + (cpuMs(w.pid) ?? 0), 0);
  const [workersBefore, bureauBefore] = [workerCpu(), cpuMs(bureau.pid) ?? 0];
  const pgBefore = await backendCpu();
  const started = Date.now();
  const day = new Date().toISOString().slice(0, 10);
  await db.transaction((tx) =>
    intakeTriggers(
      tx,
      rows.map((row) => ({ id: `trg_bench_${row.id}_${day}`, reference: row.id, types: ['inquiry'], occurredOn: day })),
      new Date(),
    ),
  );
  for (;;) {
    await sleep(250);
    const left = await admin.query<{ n: number }>(
      `select count(*)::int as n from ${schema}.users where client_id = $1 and trigger_due_at is not null`,
      [clientId],
    );
    if ((left.rows[0]?.n ?? 0) === 0) break;
    if (Date.now() - started > 600_000) throw new Error('triggered pulls still pending after 10 minutes');
  }
  const pulls = rows.length;
  const perPull = {
    workers: (workerCpu() - workersBefore) / pulls,
    bureau: ((cpuMs(bureau.pid) ?? 0) - bureauBefore) / pulls,
    postgres: ((await backendCpu()) - pgBefore) / pulls,
  };
  const total = perPull.workers + perPull.bureau + perPull.postgres;
  console.log(
    `\nTriggers: ${fmt(pulls)} files reported changed (${TRIGGER_SHARE * 100} % of ${fmt(USERS)}), pulled in ${fmt((Date.now() - started) / 1000, 1)} s: ` +
      `${fmt(perPull.workers, 2)} + ${fmt(perPull.bureau, 2)} + ${fmt(perPull.postgres, 2)} = ${fmt(total, 2)} ms of CPU per triggered pull, ` +
      `${fmt(total * TRIGGER_SHARE, 3)} ms per customer-day (${fmt(total * TRIGGER_SHARE * 30, 2)} ms per customer-month, on top of the period)`,
  );
};

/** CPU so far of the workers' PostgreSQL sessions now connected (the trigger phase's sessions stay open throughout). */
const backendCpu = async () => {
  const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [schema]);
  return rows.reduce((sum, { pid }) => sum + (cpuMs(pid) ?? 0), 0);
};

/**
 * What a month's file differences add per regular refresh: a bench cycle pulls every file as of today, so it finds
 * none. Replays `sample` ordinary sandbox identities over 12 month-ends through the job's own pure functions.
 */
const monthlyAlertRate = (sample: number, now: Date) => {
  let [diffAlerts, scoreChanges] = [0, 0];
  for (let i = 0; i < sample; i++) {
    const subject = {
      userId: `usr_sample_${i}`,
      firstName: 'Bench',
      lastName: `Sample${i}`,
      ssnLast4: String(2000 + ((i * 7919) % 7000)).padStart(4, '0'),
      dateOfBirth: `19${50 + (i % 45)}-0${1 + (i % 9)}-1${i % 9}`,
      address: { street: `${100 + (i % 900)} Maple St`, city: 'Columbus', state: 'OH', zipCode: '43210' },
    };
    const seen = new Set<string>();
    let previous: { snapshot: FileSnapshot; score: number | undefined } | undefined;
    for (let m = 12; m >= 0; m--) {
      const asOf = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 15));
      const file = generateCreditFile(subject, asOf);
      const next = { snapshot: snapshotOf(file, asOf), score: file.monthlyScores.at(-1)?.score };
      const alerts = detectAlerts(previous?.snapshot ?? null, next.snapshot, asOf, subject.userId).filter(
        (alert) => !seen.has(alert.key),
      );
      for (const alert of alerts) seen.add(alert.key);
      if (previous) {
        diffAlerts += alerts.length;
        if (Math.abs((next.score ?? 0) - (previous.score ?? 0)) > SIGNIFICANT_CHANGE) scoreChanges += 1;
      }
      previous = next;
    }
  }
  return { diffAlerts: diffAlerts / (sample * 12), scoreChanges: scoreChanges / (sample * 12) };
};

const report = (cycles: Cycle[]) => {
  console.log(
    '\n| Phase | users/s (target 333) | cycle | CPU ms per user: workers + bureau + PostgreSQL | worker RSS MB start → peak → end |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const c of cycles) {
    const total = c.cpu.workers + c.cpu.bureau + c.cpu.postgres;
    const rate = USERS / c.seconds;
    console.log(
      `| ${c.label} | ${fmt(rate)} (${verdict(rate >= TARGET_PER_S)}) | ${fmt(c.seconds, 1)} s | ` +
        `${fmt(c.cpu.workers, 2)} + ${fmt(c.cpu.bureau, 2)} + ${fmt(c.cpu.postgres, 2)} = ${fmt(total, 2)} (${fmt(2000 / total)} users/s on 2 idle cores) | ${c.rss}${c.problems ? ` (${c.problems} warn/error lines)` : ''} |`,
    );
  }
  const [one, two] = cycles;
  if (one && two) console.log(`2 workers against 1 (the baseline): ${(one.seconds / two.seconds).toFixed(2)}× the users/s`);
  console.log('\n| Table | first pull: rows, bytes per user | regular refresh: rows, bytes per user |\n| --- | --- | --- |');
  const first = cycles[0] as Cycle;
  const regular = cycles.at(-1) as Cycle;
  const perUser = (c: Cycle, t: Table) => `${fmt(c.added[t].rows / USERS, 2)}, ${fmt(c.added[t].bytes / USERS)}`;
  for (const t of TABLES) console.log(`| ${t} | ${perUser(first, t)} | ${perUser(regular, t)} |`);

  // Steady state: a regular refresh every MONITORING_INTERVAL writes what the regular cycle wrote plus what a month's
  // differences add; retention then holds each table at rows per year × its retention age.
  const rate = monthlyAlertRate(300, new Date());
  const refreshesPerYear = config.MONITORING_INTERVAL ? (365.25 * 86_400_000) / config.MONITORING_INTERVAL : 12;
  const ages = retentionAgesDays(config);
  const alerts = rate.diffAlerts + rate.scoreChanges;
  const measured = (t: Table) => regular.added[t].rows / USERS;
  const rows: [Table, number, number][] = [
    ['score_history', measured('score_history'), ages.scoreHistory],
    ['outbox_events', measured('outbox_events') + rate.scoreChanges + alerts, ages.outbox],
    ['alerts', measured('alerts') + alerts, ages.alerts],
    ['monitoring_alert_keys', measured('monitoring_alert_keys') + rate.diffAlerts, ages.alerts],
  ];
  console.log(
    `\nPer user once retention keeps pace (${fmt(refreshesPerYear, 2)} refreshes a year; the sandbox files give ` +
      `${fmt(rate.diffAlerts, 3)} alerts from differences and ${fmt(rate.scoreChanges, 3)} score changes per refresh):`,
  );
  console.log(
    '| Table | rows per refresh | written per year | kept | held | bytes held |\n| --- | --- | --- | --- | --- | --- |',
  );
  for (const [t, perRefresh, keptDays] of rows) {
    const sample = [regular, first].find((c) => c.added[t].rows > 0);
    const bytesPerRow = sample ? sample.added[t].bytes / sample.added[t].rows : 0;
    const held = perRefresh * refreshesPerYear * (keptDays / 365.25);
    console.log(
      `| ${t} | ${fmt(perRefresh, 3)} | ${fmt(perRefresh * refreshesPerYear, 1)} | ${fmt(keptDays)} days | ${fmt(held, 1)} | ${fmt(held * bytesPerRow)} |`,
    );
  }
};

const capRun = async (twoWorkerRate: number) => {
  // A cap the two workers cannot reach here would measure the workers, not the cap: then a quarter of their rate.
  const cap = twoWorkerRate >= CAP * 2 ? CAP : Math.max(5, Math.floor(twoWorkerRate / 4));
  const clientId = await seed('cap', Math.ceil(cap * CAP_SECONDS * 1.5));
  const workers = await startWorkers(2, cap);
  const pullsBefore = bureau.pulls.length;
  const started = await release(clientId);
  await sleep(Math.max(0, started - Date.now()) + CAP_SECONDS * 1000);
  const ended = Date.now();
  for (const w of workers) await w.stop();
  // Whole seconds only, skipping the first two (workers waking, claiming) and the one cut by the end.
  const [from, to] = [Math.floor(started / 1000) + 2, Math.floor(ended / 1000) - 1];
  const counted = bureau.pulls.slice(pullsBefore).filter((at) => at >= from * 1000 && at < to * 1000).length;
  const perSecond = counted / Math.max(1, to - from);
  const off = ((perSecond - cap) / cap) * 100;
  console.log(
    `\nCap run: 2 workers, BUREAU_MAX_PER_SECOND=${cap}${cap === CAP ? '' : ` (${CAP} is out of this machine's reach)`}: ` +
      `${fmt(perSecond, 1)} pulls/s over ${to - from} whole seconds, ${off >= 0 ? '+' : ''}${fmt(off, 1)} % of the cap (within 5 %: ${verdict(Math.abs(off) <= 5)})`,
  );
};

const cleanUp = async () => {
  for (const w of running) await w.stop();
  await bureau.stop();
  await db.close().catch(() => {});
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
};
// Ctrl-C still stops the children and drops the schema.
process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
try {
  console.log(
    `Monitoring bench: ${fmt(USERS)} users a phase, schema ${schema}, ${CPUS} CPUs, BUREAU_BATCH_PULLS=${BATCH_PULLS}, MONITORING_CONCURRENCY=${CONCURRENCY}`,
  );
  // The host's speed before and after: its CPU figures read next to another day's only through these.
  console.log(`Before, ${describeHost(await probeHost())}`);
  let twoWorkerRate = Number.POSITIVE_INFINITY;
  if (PHASES.includes('cycles')) {
    const cycles: Cycle[] = [];
    const firstClient = await seed('one', USERS);
    const one = await startWorkers(1, 100_000);
    cycles.push(await cycle('1 worker, first pull', one, firstClient, 0));
    for (const w of one) await w.stop();
    const secondClient = await seed('two', USERS);
    const two = await startWorkers(2, 100_000);
    cycles.push(await cycle('2 workers, first pull', two, secondClient, 0));
    cycles.push(await cycle('2 workers, regular', two, secondClient, 1));
    await triggerCycle(two, secondClient);
    for (const w of two) await w.stop();
    twoWorkerRate = USERS / (cycles[1] as Cycle).seconds;
    report(cycles);
  }
  if (PHASES.includes('cap')) await capRun(twoWorkerRate);
  console.log(`\nAfter, ${describeHost(await probeHost())}`);
} finally {
  await cleanUp();
}
