/**
 * `pnpm bench:clock`: how long a sandbox test clock's advance of 24 months takes for 100 users (issue 22's bound:
 * under a minute). Seeds BENCH_USERS verified sandbox users in bulk (a third on story 1001, the rest ordinary files),
 * runs their first refresh in real time, attaches them to one clock, advances it BENCH_MONTHS and times the worker's
 * run to `ready`. PostgreSQL at DATABASE_URL (a fresh schema, dropped after), or PGlite with BENCH_DB=pglite.
 * Prints periods run, refreshes/s, rows added and the process's RSS. With BUREAU_URL and BUREAU_API_KEY set (`pnpm
 * bureau`), the pulls go over HTTP under BUREAU_MAX_PER_SECOND (default 50/s), as on a production-mode instance.
 */
import { randomBytes } from 'node:crypto';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Caller } from '../src/core/principal.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { advanceClock, attachClockUsers, createClock, runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { seedMonitoredUsers } from './monitoring/seed-users.ts';

const envInt = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const USERS = envInt('BENCH_USERS', 100);
const MONTHS = envInt('BENCH_MONTHS', 24);
const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const onPglite = process.env.BENCH_DB === 'pglite';
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

const main = async () => {
  const schema = `bench_clock_${randomBytes(5).toString('hex')}`;
  const db: Db = onPglite ? await openPglite() : await openPostgres({ connectionString: DATABASE_URL, schema, max: 20 });
  // BUREAU_* from the environment: with BUREAU_URL (e.g. `pnpm bureau`) the advance pulls over HTTP under the cap.
  const bureauEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('BUREAU_')));
  const config = loadConfig({ ...bureauEnv, LOG_LEVEL: 'warn', DATA_DIR: '/nonexistent' } as Record<string, string>);
  const ctx = await buildContext({ config, db, logger: createLogger('warn') });
  try {
    const { client } = await createClient(db, ctx.clock, 'sandbox', { name: 'Clock bench', contactEmail: 'ops@bank.test' });
    const caller = { clientId: client.id } as Caller;
    const started = new Date();
    await seedMonitoredUsers(ctx, {
      clientId: client.id,
      count: USERS,
      dueAt: started,
      ssnOf: (i) => (i % 3 === 0 ? '1001' : String(2000 + ((i * 7919) % 7000)).padStart(4, '0')),
      prefix: 'clock',
    });
    await runMonitoringUntilIdle(ctx);
    const clock = await createClock(ctx, caller, { name: 'bench' });
    const { rows } = await db.query<{ id: string }>('select id from users where client_id = $1 order by id', [client.id]);
    await attachClockUsers(ctx, caller, clock.clockId, { userIds: rows.map((r) => r.id) });
    const target = new Date(clock.frozenTime);
    target.setUTCMonth(target.getUTCMonth() + MONTHS);
    const count = async (table: string) =>
      Number((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n);
    const before = { history: await count('score_history'), events: await count('outbox_events'), alerts: await count('alerts') };
    const rssBefore = process.memoryUsage().rss;

    await advanceClock(ctx, caller, clock.clockId, { frozenTime: target.toISOString() });
    const t0 = performance.now();
    const report = await runClockAdvancesUntilIdle(ctx);
    const seconds = (performance.now() - t0) / 1000;
    const refreshes = report.outcomes.refreshed + report.outcomes.frozen;
    const line = (label: string, value: string) => process.stdout.write(`${label.padEnd(34)} ${value}\n`);
    line('database', onPglite ? 'PGlite (in process)' : `PostgreSQL (${schema})`);
    line('users on the clock', String(rows.length));
    line('advance', `${MONTHS} months (${clock.frozenTime} → ${target.toISOString()})`);
    line('periods run', `${refreshes} (${(refreshes / rows.length).toFixed(1)} per user), ${report.outcomes.failed} failed`);
    line('advance to ready', `${seconds.toFixed(1)} s (bound: 60 s)`);
    line('refreshes per second', (refreshes / seconds).toFixed(0));
    line('history points added', String((await count('score_history')) - before.history));
    line('alerts added', String((await count('alerts')) - before.alerts));
    line('events added', String((await count('outbox_events')) - before.events));
    line('RSS before / after', `${mb(rssBefore)} / ${mb(process.memoryUsage().rss)}`);
    if (seconds > 60) process.exitCode = 1;
  } finally {
    if (!onPglite) await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await db.close();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
