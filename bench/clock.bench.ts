/**
 * `pnpm bench:clock`: how long a sandbox test clock's advance of BENCH_MONTHS (24) takes for BENCH_USERS (100) users,
 * against the bound of one minute. Seeds verified sandbox users in bulk (a third on story 1001), runs their first
 * refresh in real time, attaches them to one clock, advances it and times the worker's run to `ready`. PostgreSQL at
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test, a throwaway schema), or PGlite with BENCH_DB=pglite.
 * With BUREAU_URL and BUREAU_API_KEY (`pnpm bureau`) the pulls go over HTTP under BUREAU_MAX_PER_SECOND.
 */
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import type { Caller } from '../apps/bff/src/core/principal.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import {
  advanceClock,
  attachClockUsers,
  createClock,
  runClockAdvancesUntilIdle,
} from '../apps/bff/src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../apps/bff/src/modules/monitoring/scheduler.ts';
import { seedMonitoredUsers } from '../apps/bff/test/helpers/seed-users.ts';
import { benchClient, envInt, openBenchDb, verdict } from './common.ts';

const USERS = envInt('BENCH_USERS', 100);
const MONTHS = envInt('BENCH_MONTHS', 24);
const BOUND_S = 60;
const db = await openBenchDb(
  process.env.BENCH_DB === 'pglite' ? '' : (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'),
  20,
);
const bureauEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('BUREAU_')));
const config = loadConfig({ ...bureauEnv, LOG_LEVEL: 'warn', DATA_DIR: '/nonexistent' });
const ctx = await buildContext({ config, db, logger: createLogger('warn') });
try {
  const { clientId } = await benchClient(db);
  const caller = { clientId } as Caller;
  const ssnOf = (i: number) => (i % 3 === 0 ? '1001' : String(2000 + ((i * 7919) % 7000)).padStart(4, '0'));
  await seedMonitoredUsers(ctx, { clientId, count: USERS, dueAt: new Date(), ssnOf, prefix: 'clock' });
  await runMonitoringUntilIdle(ctx);
  const clock = await createClock(ctx, caller, { name: 'bench' });
  const { rows } = await db.query<{ id: string }>('select id from users where client_id = $1', [clientId]);
  await attachClockUsers(ctx, caller, clock.clockId, { userIds: rows.map((r) => r.id) });
  const target = new Date(clock.frozenTime);
  target.setUTCMonth(target.getUTCMonth() + MONTHS);
  const count = async (table: string) =>
    Number((await db.query<{ n: number }>(`select count(*)::int as n from ${table}`)).rows[0]?.n);
  const before = { history: await count('score_history'), alerts: await count('alerts'), events: await count('outbox_events') };

  await advanceClock(ctx, caller, clock.clockId, { frozenTime: target.toISOString() });
  const started = performance.now();
  const report = await runClockAdvancesUntilIdle(ctx);
  const seconds = (performance.now() - started) / 1000;
  const periods = report.outcomes.refreshed + report.outcomes.frozen;
  const line = (label: string, value: string) => console.log(`${label.padEnd(24)} ${value}`);
  line('database', db.schema ? `PostgreSQL (${db.schema})` : 'PGlite (in process)');
  line('advance', `${MONTHS} months for ${rows.length} users`);
  line('periods run', `${periods} (${(periods / rows.length).toFixed(1)} per user), ${report.outcomes.failed} failed`);
  line(
    'advance to ready',
    `${seconds.toFixed(1)} s, ${(periods / seconds).toFixed(0)} periods/s (bound ${BOUND_S} s: ${verdict(seconds <= BOUND_S)})`,
  );
  line(
    'rows added',
    `history ${(await count('score_history')) - before.history}, alerts ${(await count('alerts')) - before.alerts}, events ${(await count('outbox_events')) - before.events}`,
  );
  line('RSS', `${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`);
  if (seconds > BOUND_S) process.exitCode = 1;
} finally {
  await db.close();
}
