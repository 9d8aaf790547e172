/**
 * `pnpm bench:pulls`: how many credit files the bureau sells us for customers who keep looking at their score.
 *
 * Two API instances in this process on one database (PostgreSQL on a throwaway schema when DATABASE_URL is set, else
 * one embedded PGlite), both in front of one sandbox bureau that counts the credit files it answers. BENCH_USERS (1,000)
 * verified users get their first file from the monitoring job; then each is read BENCH_READS (100) times (score,
 * history, offers and the user in turn), alternating instances, for at least three read-cache lifetimes
 * (BENCH_CACHE_TTL_MS, 1,000 ms, stands in for the 30 s default). Prints the files bought against the baseline of one
 * per user, as counted at the bureau and as `bureau.pull` entries on the audit trail.
 */
import { randomBytes } from 'node:crypto';
import { createApp } from '../src/app.ts';
import { buildContext } from '../src/bootstrap.ts';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { chainSpooledEntries } from '../src/modules/audit/chainer.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { listen } from '../src/server.ts';
import { seedMonitoredUsers } from './monitoring/seed-users.ts';

const USERS = Number(process.env.BENCH_USERS ?? '1000');
const READS = Number(process.env.BENCH_READS ?? '100');
const CACHE_TTL_MS = Number(process.env.BENCH_CACHE_TTL_MS ?? '1000');
const CONCURRENCY = 32;
const SECRET = 'sk_bench_secret_0123456789abcdefghijklmnop';
const PATHS = ['/credit-score', '/credit-score/history', '/offers', ''];

const countingSandboxBureau = () => {
  const inner = new SandboxBureau();
  const counted = { credit: 0 };
  const bureau: BureauProvider = {
    name: inner.name,
    pullCreditFile: (subject, asOf) => {
      counted.credit += 1;
      return inner.pullCreditFile(subject, asOf);
    },
    pullIdentityFile: (subject, asOf) => inner.pullIdentityFile(subject, asOf),
  };
  return { bureau, counted };
};

const openDatabases = async (): Promise<{ a: Db; b: Db; close: () => Promise<void> }> => {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openPglite();
    return { a: db, b: db, close: () => db.close() };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const a = await openPostgres({ connectionString: url, schema });
  const b = await openPostgres({ connectionString: url, schema });
  return {
    a,
    b,
    close: async () => {
      await a.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await b.close();
      await a.close();
    },
  };
};

const main = async () => {
  const config = loadConfig({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    READ_CACHE_TTL_MS: String(CACHE_TTL_MS),
    // The bench measures what reads buy, not the per-client limit that would refuse most of them.
    RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
  });
  const dbs = await openDatabases();
  const logger = createLogger('silent');
  const { bureau, counted } = countingSandboxBureau();
  const ctxA = await buildContext({ config, db: dbs.a, logger, bureau });
  const ctxB = await buildContext({ config, db: dbs.b, logger, bureau });
  const a = await listen(createApp(ctxA), config);
  const b = await listen(createApp(ctxB), config);
  try {
    const { client } = await createClient(dbs.a, systemClock, config.APP_ENV, {
      name: 'Bench',
      contactEmail: 'o@b.test',
      secret: SECRET,
    });
    await seedMonitoredUsers(ctxA, { clientId: client.id, count: USERS, dueAt: new Date(Date.now() - 1000) });
    await runMonitoringUntilIdle(ctxA);
    const firstPulls = counted.credit;
    const { rows } = await dbs.a.query<{ id: string }>('select id from users where client_id = $1', [client.id]);
    const userIds = rows.map((r) => r.id);

    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET });
    const token = (
      (await (await fetch(`${a.url}/oauth/token`, { method: 'POST', body: form })).json()) as { access_token: string }
    ).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const started = performance.now();
    let next = 0;
    const total = userIds.length * READS;
    const worker = async () => {
      for (let n = next++; n < total; n = next++) {
        const round = Math.floor(n / userIds.length);
        const userId = userIds[n % userIds.length] as string;
        const base = (n + round) % 2 === 0 ? a.url : b.url;
        const res = await fetch(`${base}/v1/users/${userId}${PATHS[round % PATHS.length]}`, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`a read answered ${res.status}`);
        // Spread the reads over at least three cache lifetimes, so most of them miss an expired entry.
        const due = (round / READS) * 3 * CACHE_TTL_MS;
        const wait = due - (performance.now() - started);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const elapsedMs = performance.now() - started;
    await chainSpooledEntries({ db: dbs.a });
    const audited = await dbs.a.query<{ n: number }>(
      `select count(*)::int as n from audit_events where client_id = $1 and type = 'bureau.pull' and subject->>'file' = 'credit'`,
      [client.id],
    );
    const bought = counted.credit;
    const auditedPulls = Number(audited.rows[0]?.n);
    const verdict = bought === USERS && auditedPulls === USERS ? 'met' : 'NOT met';
    process.stdout.write(
      `${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, two instances, read cache ${CACHE_TTL_MS} ms\n` +
        `${USERS} users, first pulls by the monitoring job: ${firstPulls} files\n` +
        `${total} reads (${READS} per user) in ${(elapsedMs / 1000).toFixed(1)} s = ${(elapsedMs / CACHE_TTL_MS).toFixed(1)} cache lifetimes\n` +
        `files bought: ${bought} at the bureau, ${auditedPulls} bureau.pull audit entries; baseline 1 per user = ${USERS}: ${verdict}\n`,
    );
    if (verdict !== 'met') process.exitCode = 1;
  } finally {
    await a.close();
    await b.close();
    await dbs.close();
  }
};

await main();
