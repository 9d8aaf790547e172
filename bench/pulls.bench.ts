/**
 * `pnpm bench:pulls`: how many credit files the bureau sells us for customers who keep looking at their score.
 *
 * Two API instances in this process on one database (a throwaway PostgreSQL schema with DATABASE_URL, else one
 * in-memory PGlite) in front of one sandbox bureau that counts the credit files it answers. BENCH_USERS (1,000)
 * verified users get their first file from the monitoring job; then each is read BENCH_READS (100) times (score,
 * history, offers and the user in turn), alternating instances, over at least three read-cache lifetimes
 * (BENCH_CACHE_TTL_MS, 1,000 ms, stands in for the 30 s default). Prints the files bought, as counted at the bureau
 * and as `bureau.pull` audit entries, against the baseline of one per user; exits 1 when more were bought.
 */
import { createApp } from '../apps/bff/src/app.ts';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { SandboxBureau } from '../apps/bff/src/bureau/sandbox/sandbox-bureau.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import { openPostgres } from '../apps/bff/src/db/postgres.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { chainSpooledEntries } from '../apps/bff/src/modules/audit/service.ts';
import { runMonitoringUntilIdle } from '../apps/bff/src/modules/monitoring/scheduler.ts';
import { listen } from '../apps/bff/src/server.ts';
import { seedMonitoredUsers } from '../apps/bff/test/helpers/seed-users.ts';
import { benchClient, envInt, openBenchDb, verdict } from './common.ts';

const USERS = envInt('BENCH_USERS', 1000);
const READS = envInt('BENCH_READS', 100);
const CACHE_TTL_MS = envInt('BENCH_CACHE_TTL_MS', 1000);
const CONCURRENCY = 32;
const PATHS = ['/credit-score', '/credit-score/history', '/offers', ''];

const config = loadConfig({
  ...process.env,
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: '/nonexistent',
  LOG_LEVEL: 'silent',
  READ_CACHE_TTL_MS: String(CACHE_TTL_MS),
  // What reads buy is measured, not the per-client limit that would refuse most of them.
  RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
});
const dbA = await openBenchDb();
// The second instance: a pool of its own on the same schema, or the same PGlite.
const dbB = dbA.schema ? await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: dbA.schema }) : dbA;
const bureau = new SandboxBureau();
let filesSold = 0;
const pullCreditFile = bureau.pullCreditFile.bind(bureau);
bureau.pullCreditFile = (subject, asOf) => {
  filesSold += 1;
  return pullCreditFile(subject, asOf);
};
const logger = createLogger('silent');
const ctxA = await buildContext({ config, db: dbA, logger, bureau });
const a = await listen(createApp(ctxA), config);
const b = await listen(createApp(await buildContext({ config, db: dbB, logger, bureau })), config);
try {
  const { clientId, token } = await benchClient(dbA, a.url);
  await seedMonitoredUsers(ctxA, { clientId, count: USERS, dueAt: new Date(Date.now() - 1000) });
  await runMonitoringUntilIdle(ctxA);
  const firstPulls = filesSold;
  const { rows } = await dbA.query<{ id: string }>('select id from users where client_id = $1', [clientId]);
  const userIds = rows.map((r) => r.id);
  const headers = { authorization: `Bearer ${token}` };
  const started = performance.now();
  const total = userIds.length * READS;
  let next = 0;
  const reader = async () => {
    for (let n = next++; n < total; n = next++) {
      const round = Math.floor(n / userIds.length);
      const base = (n + round) % 2 === 0 ? a.url : b.url;
      const res = await fetch(`${base}/v1/users/${userIds[n % userIds.length]}${PATHS[round % PATHS.length]}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`a read answered ${res.status}`);
      // Spread over at least three cache lifetimes, so most reads find their entry expired.
      const wait = (round / READS) * 3 * CACHE_TTL_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, reader));
  const elapsedMs = performance.now() - started;
  await chainSpooledEntries({ db: dbA });
  const audited = await dbA.query<{ n: number }>(
    `select count(*)::int as n from audit_events where client_id = $1 and type = 'bureau.pull' and subject->>'file' = 'credit'`,
    [clientId],
  );
  const auditedPulls = Number(audited.rows[0]?.n);
  const met = filesSold === USERS && auditedPulls === USERS;
  console.log(
    `${dbA.kind}, two instances, read cache ${CACHE_TTL_MS} ms\n` +
      `${USERS} users, first pulls by the monitoring job: ${firstPulls} files\n` +
      `${total} reads (${READS} per user) in ${(elapsedMs / 1000).toFixed(1)} s = ${(elapsedMs / CACHE_TTL_MS).toFixed(1)} cache lifetimes\n` +
      `files bought: ${filesSold} at the bureau, ${auditedPulls} bureau.pull audit entries; baseline 1 per user = ${USERS}: ${verdict(met)}`,
  );
  if (!met) process.exitCode = 1;
} finally {
  await a.close();
  await b.close();
  if (dbB !== dbA) await dbB.close();
  await dbA.close();
}
