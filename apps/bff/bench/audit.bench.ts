/**
 * What recording a read in the audit trail costs, in isolation: the dispatcher's hook (`ctx.audit.recordOperation`)
 * called by BENCH_CONCURRENCY (64) concurrent "requests", each waiting for its group commit like a real read does.
 * Prints, per round: entries/s, the mean batch size, this process's CPU µs per entry (with PGlite that includes the
 * database's work, which runs in-process; with PostgreSQL only the API side), and p50/p99 of the wait per entry.
 *
 *   pnpm bench:audit                                        # in-memory PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:audit   # PostgreSQL, in a throwaway schema
 *   BENCH_ENTRIES=20000 BENCH_ROUNDS=3 BENCH_CONCURRENCY=64 pnpm bench:audit
 *
 * Compare the CPU µs per entry with `pnpm bench:api`'s "API CPU per request" (and its BENCH_AUDIT=0 run): their ratio
 * is what the audit trail adds to a read.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Caller } from '../src/core/principal.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

const openBenchDb = async (): Promise<Db> => {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const schema = `bench_audit_${randomBytes(4).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema });
  return {
    ...db,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const main = async () => {
  const db = await openBenchDb();
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const audit = ctx.audit;
  if (!audit) throw new Error('no audit trail in the context');
  const { client } = await createClient(db, systemClock, config.APP_ENV, { name: 'Bench bank', contactEmail: 'ops@bench.test' });
  const caller: Caller = { clientId: client.id, principal: { kind: 'access', client, scopes: ['admin'] } };
  const params = { userId: 'usr_bench0000000000000001' };
  let batches = 0;
  // One appending statement per client and batch (modules/audit/conditional-append-repo.ts).
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('json_populate_recordset')) batches += 1;
    return query(sql, params);
  }) as Db['query'];

  const round = async (entries: number) => {
    const waits: number[] = [];
    let next = 0;
    batches = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const worker = async () => {
      while (next < entries) {
        next += 1;
        const started = performance.now();
        await audit.recordOperation('getUser', caller, `req_bench${next}`, params);
        waits.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    waits.sort((a, b) => a - b);
    return {
      perSecond: Math.round(entries / seconds),
      batch: (entries / Math.max(1, batches)).toFixed(1),
      cpuUs: ((cpu.user + cpu.system) / entries).toFixed(1),
      p50: percentile(waits, 0.5).toFixed(2),
      p99: percentile(waits, 0.99).toFixed(2),
    };
  };

  console.log(
    `database ${db.kind}; ${CONCURRENCY} concurrent; ${ENTRIES} entries per round; load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  await round(Math.min(2000, ENTRIES)); // warm-up
  console.log('round  entries/s  mean batch  CPU µs/entry  wait p50 ms  wait p99 ms');
  for (let i = 1; i <= ROUNDS; i++) {
    const r = await round(ENTRIES);
    console.log(
      `${String(i).padEnd(6)} ${String(r.perSecond).padStart(9)}  ${r.batch.padStart(10)}  ${r.cpuUs.padStart(12)}  ${r.p50.padStart(11)}  ${r.p99.padStart(11)}`,
    );
  }
  const size = await db.query<{ bytes: string; n: string }>(
    `select pg_total_relation_size('audit_events')::text as bytes, (select count(*) from audit_events)::text as n`,
  );
  const row = size.rows[0];
  if (row) console.log(`audit_events with indexes: ${Math.round(Number(row.bytes) / Number(row.n))} bytes per entry`);
  await db.close();
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
