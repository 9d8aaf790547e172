/**
 * One monitoring cycle at scale, on PostgreSQL, against `pnpm bureau` over HTTP.
 *
 *   pnpm bench:monitoring                                    # 100,000 users, postgres://postgres@127.0.0.1:5432/test
 *   BENCH_USERS=2000 BENCH_CAP_SECONDS=5 pnpm bench:monitoring   # smoke run, well under a minute
 *
 * Phases, each on its own freshly seeded population (seed-users.ts, bulk SQL, not HTTP) in one throwaway schema:
 *  1. `1 worker`: one worker process refreshes every user once (period 0, the first pull after verification).
 *  2. `2 workers`: the same with two worker processes.
 *  3. `2 workers, regular`: the phase-2 population once more (period 1: a regular refresh, compared with the stored
 *     snapshot). The bureau's files change per calendar month and every pull here is as of today, so this cycle sees
 *     no file differences; the alert rate of a real month comes from the sandbox files themselves (alert-rate.ts).
 *  4. `cap`: two workers with BUREAU_MAX_PER_SECOND=BENCH_CAP (150) for BENCH_CAP_SECONDS (30): pulls/s vs the cap.
 *     When phase 2 showed the workers cannot do twice the cap on this machine, a quarter of their rate is used
 *     instead (said so in the output), so that the cap, not the machine, is what is measured.
 * BENCH_PHASES=cycles or BENCH_PHASES=cap runs only those.
 * Phases 1–3 run with the cap out of reach (BENCH_HIGH_CAP, 100000). Workers are `ROLE=worker` instances of
 * src/main.ts (the production entry point), sharing the cap through REDIS_URL (redis://127.0.0.1:6379/9).
 *
 * A cycle starts when the bench makes the population due (one UPDATE, after the workers are up and idle, their RSS
 * read) and ends when no user of it is left in the period. Printed per phase: users/s, p50/p99 per user (from the
 * workers' 'monitoring progress' lines: each line is a ~5 s window with its own p50/p99; the cycle's p50 is the
 * median of the window p50s weighted by users per window, its p99 the highest window p99, an upper bound),
 * pulls/s as the bureau answered them, rows and bytes added per table (count(*) and pg_total_relation_size before and
 * after, per user), and each worker's RSS at start, highest during, and at end (VmRSS).
 *
 * Pinning (taskset, BENCH_PIN=0 turns it off): worker i on CPU i mod CPUs, the bureau and this process on the last
 * CPU; PostgreSQL and Redis are not ours to pin. On a 2-core machine everything shares two cores: the numbers are
 * what one small box does, not what a worker alone does. MONITORING_BATCH_SIZE / MONITORING_CONCURRENCY pass through.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { retentionAgesDays } from '../src/retention/policy.ts';
import { sampleAlertRate } from './monitoring/alert-rate.ts';
import { CPUS, cpuMs, pin, pinning, rssMb, startBureau, startWorker, type WorkerProcess } from './monitoring/processes.ts';
import { seedMonitoredUsers } from './monitoring/seed-users.ts';

const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, got ${raw}`);
  return value;
};

const USERS = envInt('BENCH_USERS', 100_000);
const CAP = envInt('BENCH_CAP', 150);
const CAP_SECONDS = envInt('BENCH_CAP_SECONDS', 30);
const HIGH_CAP = envInt('BENCH_HIGH_CAP', 100_000);
const ALERT_SAMPLE = envInt('BENCH_ALERT_SAMPLE', 300);
const CYCLE_TIMEOUT_S = envInt('BENCH_CYCLE_TIMEOUT', 1800);
/** `cycles` (phases 1–3), `cap` (phase 4), or both (the default). */
const PHASES = (process.env.BENCH_PHASES ?? 'cycles,cap').split(',');
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/9';
const TABLES = [
  'users',
  'credit_snapshots',
  'score_history',
  'outbox_events',
  'alerts',
  'monitoring_alert_keys',
  'webhook_deliveries',
  'webhook_attempts',
] as const;
type Table = (typeof TABLES)[number];
const DAYS_PER_YEAR = 365.25;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const schema = `bench_mon_${randomBytes(5).toString('hex')}`;
const schemaUrl = (() => {
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Names the workers' PostgreSQL sessions, so their backends' CPU can be told apart from other clients'.
  url.searchParams.set('application_name', schema);
  return url.toString();
})();

type Sizes = Record<Table, { rows: number; bytes: number }>;

const measure = async (admin: pg.Client): Promise<Sizes> => {
  const sizes = {} as Sizes;
  for (const table of TABLES) {
    const { rows } = await admin.query<{ rows: string; bytes: string }>(
      `select (select count(*) from ${schema}.${table}) as rows, pg_total_relation_size('${schema}.${table}') as bytes`,
    );
    sizes[table] = { rows: Number(rows[0]?.rows), bytes: Number(rows[0]?.bytes) };
  }
  return sizes;
};

interface Window {
  claimed: number;
  p50Ms: number;
  p99Ms: number;
  refreshed: number;
  frozen: number;
  skipped: number;
  failed: number;
}

interface PhaseResult {
  label: string;
  users: number;
  seconds: number;
  windows: Window[];
  pulls: number;
  peakPullsPerSecond: number;
  /** CPU ms per user: all workers together, the bureau, the workers' PostgreSQL backends. */
  cpuPerUser: { workers: number; bureau: number; postgres: number };
  /** The bureau's own answer time p50 / p99 (ms). */
  bureauMs: [number, number];
  rss: { start?: number; peak?: number; end?: number }[];
  added: Sizes;
  problems: number;
}

const combine = (windows: Window[]) => {
  const byP50 = [...windows].sort((a, b) => a.p50Ms - b.p50Ms);
  const total = windows.reduce((sum, w) => sum + w.claimed, 0);
  let running = 0;
  const p50 = byP50.find((w) => {
    running += w.claimed;
    return running >= total / 2;
  })?.p50Ms;
  const sum = (key: keyof Window) => windows.reduce((s, w) => s + w[key], 0);
  return {
    p50: p50 ?? 0,
    p99: Math.max(0, ...windows.map((w) => w.p99Ms)),
    refreshed: sum('refreshed'),
    frozen: sum('frozen'),
    skipped: sum('skipped'),
    failed: sum('failed'),
  };
};

const main = async () => {
  console.log(
    `Monitoring bench: ${PHASES.includes('cycles') ? `${fmt(USERS)} users a phase` : 'cap run only'}, schema ${schema}, ${CPUS} CPUs${pinning ? ', pinned with taskset' : ''}`,
  );
  pin(process.pid, CPUS - 1);
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const config = loadConfig({ DATABASE_URL: schemaUrl, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
  const db = await openPostgres({ connectionString: DATABASE_URL, schema, max: 4 });
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const bureau = await startBureau(`bk_bench_${randomBytes(12).toString('hex')}`, CPUS - 1);
  const stopping: (() => Promise<void>)[] = [() => bureau.stop()];

  const workerEnv = (cap: number): Record<string, string> => ({
    DATABASE_URL: schemaUrl,
    REDIS_URL,
    BUREAU_URL: bureau.url,
    BUREAU_API_KEY: bureau.apiKey,
    BUREAU_MAX_PER_SECOND: String(cap),
    MONITORING_POLL_INTERVAL_MS: '200',
    MONITORING_RETRY_SCHEDULE: '1s,2s,5s,10s,30s',
  });

  const seed = async (label: string, count: number) => {
    const { client } = await createClient(db, systemClock, 'sandbox', { name: `Bench ${label}`, contactEmail: 'ops@bank.test' });
    const started = performance.now();
    // Not due yet: the workers start idle, so their RSS at start is read before any work.
    await seedMonitoredUsers(ctx, { clientId: client.id, count, dueAt: new Date('2999-01-01T00:00:00Z'), prefix: label });
    await admin.query(`analyze ${schema}.users`);
    console.log(`  seeded ${fmt(count)} users (${label}) in ${fmt((performance.now() - started) / 1000, 1)} s`);
    return client.id;
  };

  /** Makes the client's users due now: period `period` starts for all of them at once. */
  const release = async (clientId: string) => {
    await admin.query(
      `update ${schema}.users set monitoring_anchor_at = now() - monitoring_period * $2::interval,
         monitoring_due_at = now(), monitoring_next_attempt_at = now() where client_id = $1`,
      [clientId, `${config.MONITORING_INTERVAL / 1000} seconds`],
    );
  };

  const remaining = async (clientId: string, period: number) => {
    const { rows } = await admin.query<{ n: number }>(
      `select count(*)::int as n from ${schema}.users where client_id = $1 and monitoring_period < $2 and deleted_at is null`,
      [clientId, period],
    );
    return rows[0]?.n ?? 0;
  };

  const runCycle = async (label: string, workers: WorkerProcess[], clientId: string, period: number): Promise<PhaseResult> => {
    const before = await measure(admin);
    const rss = workers.map((w) => ({ start: rssMb(w.pid), peak: rssMb(w.pid), end: undefined as number | undefined }));
    const progressBefore = workers.map((w) => w.lines('monitoring progress').length);
    const problemsBefore = workers.reduce((sum, w) => sum + w.problems().length, 0);
    const pullsBefore = bureau.pulls.length;
    const workerCpuBefore = workers.reduce((sum, w) => sum + (cpuMs(w.pid) ?? 0), 0);
    const bureauCpuBefore = cpuMs(bureau.pid) ?? 0;
    // Backend pid → [CPU when first seen in this cycle, CPU last seen]; sessions that come and go still count.
    const backends = new Map<number, [number, number]>();
    const sampleBackends = async (firstSight: boolean) => {
      const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [
        schema,
      ]);
      for (const { pid } of rows) {
        const now = cpuMs(pid);
        if (now === undefined) continue;
        const seen = backends.get(pid);
        if (seen) seen[1] = now;
        else backends.set(pid, [firstSight ? now : 0, now]);
      }
    };
    await sampleBackends(true);
    const started = Date.now();
    await release(clientId);
    let left = USERS;
    let lastReport = started;
    while (left > 0) {
      await sleep(500);
      left = await remaining(clientId, period + 1);
      await sampleBackends(false);
      workers.forEach((w, i) => {
        const now = rssMb(w.pid) ?? 0;
        const entry = rss[i];
        if (entry) entry.peak = Math.max(entry.peak ?? 0, now);
      });
      if (Date.now() - lastReport > 15_000) {
        lastReport = Date.now();
        const done = USERS - left;
        console.log(`    ${label}: ${fmt(done)} done, ${fmt(done / ((Date.now() - started) / 1000))} users/s`);
      }
      if (Date.now() - started > CYCLE_TIMEOUT_S * 1000) throw new Error(`${label}: ${left} users still not refreshed`);
    }
    const seconds = (Date.now() - started) / 1000;
    await sampleBackends(false);
    const cpuPerUser = {
      workers: (workers.reduce((sum, w) => sum + (cpuMs(w.pid) ?? 0), 0) - workerCpuBefore) / USERS,
      bureau: ((cpuMs(bureau.pid) ?? 0) - bureauCpuBefore) / USERS,
      postgres: [...backends.values()].reduce((sum, [first, last]) => sum + last - first, 0) / USERS,
    };
    // The last window's line is written at the next idle poll.
    await sleep(1_000);
    workers.forEach((w, i) => {
      const entry = rss[i];
      if (entry) entry.end = rssMb(w.pid);
    });
    const after = await measure(admin);
    const added = {} as Sizes;
    for (const table of TABLES) {
      added[table] = { rows: after[table].rows - before[table].rows, bytes: after[table].bytes - before[table].bytes };
    }
    const pulls = bureau.pulls.slice(pullsBefore);
    const answerMs = bureau.answerMs.slice(pullsBefore).sort((a, b) => a - b);
    const at = (p: number) => answerMs[Math.min(answerMs.length - 1, Math.floor(p * answerMs.length))] ?? 0;
    const perSecond = new Map<number, number>();
    for (const at of pulls) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
    const windows = workers.flatMap((w, i) =>
      w
        .lines('monitoring progress')
        .slice(progressBefore[i])
        .map((line) => line as unknown as Window),
    );
    return {
      label,
      users: USERS,
      seconds,
      windows,
      pulls: pulls.length,
      peakPullsPerSecond: Math.max(0, ...perSecond.values()),
      bureauMs: [at(0.5), at(0.99)],
      cpuPerUser,
      rss,
      added,
      problems: workers.reduce((sum, w) => sum + w.problems().length, 0) - problemsBefore,
    };
  };

  const startWorkers = async (count: number, cap: number) => {
    const workers: WorkerProcess[] = [];
    for (let i = 0; i < count; i++) workers.push(await startWorker(workerEnv(cap), i));
    stopping.push(async () => {
      for (const w of workers) await w.stop();
    });
    // Connections opened, first idle poll done: what a worker weighs before any work.
    await sleep(1_500);
    return workers;
  };

  const cleanUp = async () => {
    for (const stop of stopping.reverse()) await stop().catch(() => {});
    await db.close().catch(() => {});
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  };
  // Ctrl-C still stops the children and drops the schema.
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
  const results: PhaseResult[] = [];
  try {
    if (PHASES.includes('cycles')) {
      const firstClient = await seed('one', USERS);
      const one = await startWorkers(1, HIGH_CAP);
      results.push(await runCycle('1 worker, first pull', one, firstClient, 0));
      for (const w of one) await w.stop();

      const secondClient = await seed('two', USERS);
      const two = await startWorkers(2, HIGH_CAP);
      results.push(await runCycle('2 workers, first pull', two, secondClient, 0));
      results.push(await runCycle('2 workers, regular', two, secondClient, 1));
      for (const w of two) await w.stop();

      report(results);
      printSteadyState(results);
    }
    if (!PHASES.includes('cap')) return;

    // The cap run: more users than the cap lets through in the window, so the cap is the limit throughout. A cap the
    // two workers cannot reach on this machine would measure the workers, not the cap: then a quarter of their rate.
    const twoWorkerRate = results[1] ? results[1].users / results[1].seconds : Number.POSITIVE_INFINITY;
    const cap = twoWorkerRate >= CAP * 2 ? CAP : Math.max(5, Math.floor(twoWorkerRate / 4));
    if (cap !== CAP) {
      console.log(
        `\n(2 workers did ${fmt(twoWorkerRate)} users/s here, too few for a cap of ${CAP} to be the limit: cap ${cap}/s)`,
      );
    }
    const capUsers = Math.ceil(cap * CAP_SECONDS * 1.5);
    const capClient = await seed('cap', capUsers);
    const capped = await startWorkers(2, cap);
    const pullsBefore = bureau.pulls.length;
    const started = Date.now();
    await release(capClient);
    await sleep(CAP_SECONDS * 1000);
    const ended = Date.now();
    for (const w of capped) await w.stop();
    // Whole seconds only, skipping the first (workers waking, claiming) and the one cut by the end.
    const from = Math.floor(started / 1000) + 2;
    const to = Math.floor(ended / 1000) - 1;
    const counted = bureau.pulls.slice(pullsBefore).filter((at) => at >= from * 1000 && at < to * 1000).length;
    const perSecond = counted / Math.max(1, to - from);
    const seconds = new Map<number, number>();
    for (const at of bureau.pulls.slice(pullsBefore)) {
      const second = Math.floor(at / 1000);
      if (second >= from && second < to) seconds.set(second, (seconds.get(second) ?? 0) + 1);
    }
    const busiest = Math.max(0, ...seconds.values());
    const off = ((perSecond - cap) / cap) * 100;
    console.log(
      `\nCap run: 2 workers, BUREAU_MAX_PER_SECOND=${cap}, ${CAP_SECONDS} s: ${fmt(perSecond, 1)} pulls/s over ${to - from} whole seconds ` +
        `(${off >= 0 ? '+' : ''}${fmt(off, 1)} % of the cap: ${Math.abs(off) <= 5 ? 'within' : 'NOT within'} 5 %); ` +
        `busiest second ${busiest} (answers counted by arrival, so a second can hold a few started in the one before)`,
    );
    if (bureau.failures() > 0) console.log(`  the bureau answered ${bureau.failures()} calls with an error`);
  } finally {
    await cleanUp();
  }
};

const report = (results: PhaseResult[]) => {
  console.log(
    '\n| Phase | users/s | cycle | p50 / p99 per user (ms) | bureau answer p50 / p99 (ms) | pulls/s (peak second) | outcomes | worker RSS MB start → peak → end |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const c = combine(r.windows);
    const rss = r.rss.map((m) => `${fmt(m.start ?? 0)} → ${fmt(m.peak ?? 0)} → ${fmt(m.end ?? 0)}`).join('; ');
    console.log(
      `| ${r.label} | ${fmt(r.users / r.seconds)} | ${fmt(r.seconds, 1)} s | ${fmt(c.p50, 1)} / ${fmt(c.p99, 1)} | ${r.bureauMs[0]} / ${r.bureauMs[1]} | ` +
        `${fmt(r.pulls / r.seconds)} (${fmt(r.peakPullsPerSecond)}) | ${fmt(c.refreshed)} refreshed, ${c.frozen} frozen, ${c.skipped} skipped, ${c.failed} failed${r.problems ? `, ${r.problems} warn/error lines` : ''} | ${rss} |`,
    );
  }
  console.log(`(cap ${fmt(HIGH_CAP)}/s in these phases: not the limit)`);
  console.log('\nCPU per user (ms; what the box spends, whatever else runs on it) and what that allows on 2 idle cores:');
  console.log("| Phase | workers | bureau | PostgreSQL (the workers' sessions) | total | users/s at 2 cores |");
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const r of results) {
    const { workers, bureau, postgres } = r.cpuPerUser;
    const total = workers + bureau + postgres;
    console.log(
      `| ${r.label} | ${fmt(workers, 2)} | ${fmt(bureau, 2)} | ${fmt(postgres, 2)} | ${fmt(total, 2)} | ${fmt(2000 / total)} |`,
    );
  }
  for (const r of results) {
    console.log(`\nRows and bytes added, ${r.label} (per user):`);
    console.log('| Table | rows | rows/user | bytes | bytes/user |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const table of TABLES) {
      const a = r.added[table];
      if (a.rows === 0 && a.bytes === 0) continue;
      console.log(`| ${table} | ${fmt(a.rows)} | ${fmt(a.rows / r.users, 2)} | ${fmt(a.bytes)} | ${fmt(a.bytes / r.users)} |`);
    }
  }
};

/**
 * Rows per user per year once retention keeps pace: a regular refresh every MONITORING_INTERVAL writes what phase 3
 * measured plus what a month's file differences add (alert-rate.ts), bytes per row taken from the phases that wrote
 * such rows; retention then holds each table at (rows per year × its retention age) and removes the rest.
 */
const printSteadyState = (results: PhaseResult[]) => {
  const first = results[0];
  const regular = results.at(-1);
  if (!first || !regular) return;
  const rate = sampleAlertRate(ALERT_SAMPLE, 12, new Date());
  const intervalDays = loadConfig({}).MONITORING_INTERVAL / 86_400_000;
  const refreshesPerYear = DAYS_PER_YEAR / intervalDays;
  const ages = retentionAgesDays(loadConfig({}));
  const perRow = (table: Table) => {
    const sample = [regular, first, ...results].find((r) => r.added[table].rows > 0);
    return sample ? sample.added[table].bytes / sample.added[table].rows : 0;
  };
  const measuredPerRefresh = (table: Table) => regular.added[table].rows / regular.users;
  const alertsPerRefresh = rate.diffAlertsPerRefresh + rate.scoreChangeShare;
  const perRefresh: Partial<Record<Table, number>> = {
    score_history: measuredPerRefresh('score_history'),
    // score.updated (measured) + score.changed past the threshold + alert.created per alert.
    outbox_events: measuredPerRefresh('outbox_events') + rate.scoreChangeShare + alertsPerRefresh,
    alerts: measuredPerRefresh('alerts') + alertsPerRefresh,
    monitoring_alert_keys: measuredPerRefresh('monitoring_alert_keys') + rate.diffAlertsPerRefresh,
  };
  const retentionOf: Partial<Record<Table, number>> = {
    score_history: ages.scoreHistory,
    outbox_events: ages.outbox,
    alerts: ages.alerts,
    monitoring_alert_keys: ages.alerts,
  };
  console.log(
    `\nSteady state per user (a refresh every ${intervalDays} days = ${fmt(refreshesPerYear, 2)} a year; from the sandbox files, ` +
      `${fmt(rate.diffAlertsPerRefresh, 3)} alerts from differences and ${fmt(rate.scoreChangeShare, 3)} score changes > 10 per refresh, ` +
      `${ALERT_SAMPLE} identities × 12 months):`,
  );
  console.log(
    '| Table | rows per refresh | written per year | kept | held once retention keeps pace | removed per year then | bytes held |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  let heldBytes = 0;
  let firstYearBytes = 0;
  for (const [table, rows] of Object.entries(perRefresh) as [Table, number][]) {
    const perYear = rows * refreshesPerYear;
    const keptDays = retentionOf[table] ?? Number.POSITIVE_INFINITY;
    const held = perYear * (keptDays / DAYS_PER_YEAR);
    const bytes = held * perRow(table);
    heldBytes += bytes;
    firstYearBytes += Math.min(perYear, held) * perRow(table);
    console.log(
      `| ${table} | ${fmt(rows, 3)} | ${fmt(perYear, 1)} | ${fmt(keptDays)} days | ${fmt(held, 1)} | ${fmt(perYear, 1)} | ${fmt(bytes)} |`,
    );
  }
  const snapshotBytes = first.added.credit_snapshots.bytes / first.users;
  console.log(
    `Plus one credit_snapshots row (${fmt(snapshotBytes)} bytes), the user row, and the first pull's history ` +
      `(${fmt(first.added.score_history.rows / first.users, 1)} rows). Bytes per user: ${fmt(firstYearBytes)} written in a year of ` +
      `regular refreshes (after retention), ${fmt(heldBytes)} held at steady state (history full at 84 months).`,
  );
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
