/**
 * What recording a read in the audit trail costs, in isolation, for the two ways a read can be recorded, alternated
 * round by round under the same machine load:
 * - `chained`: the entry chained on the request path (recordAudit's group commit: id, SHA-256 link, one row per entry
 *   inserted with its indexes before the answer) — how reads were recorded before the spool;
 * - `spooled`: the dispatcher's hook as it is (`ctx.audit.recordOperation`): one audit_spool row per batch before the
 *   answer; chaining happens afterwards (chainSpooledEntries, run here after the round and timed on its own).
 * BENCH_CONCURRENCY (64) concurrent "requests" each wait for their entry's commit, like a real read does. Prints, per
 * round: entries/s, the mean batch, this process's CPU µs per entry on the request path and for chaining (with PGlite
 * that includes the database's work, which runs in-process; with PostgreSQL only the API side), and p50/p99 of the
 * wait per entry.
 *
 *   pnpm bench:audit                                        # in-memory PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:audit   # PostgreSQL, in a throwaway schema
 *   BENCH_ENTRIES=20000 BENCH_ROUNDS=3 BENCH_CONCURRENCY=64 pnpm bench:audit
 *
 * Compare the CPU µs per entry with `pnpm bench:api`'s "API CPU per request" (and its BENCH_AUDIT=0 run): their ratio
 * is what the audit trail adds to a read.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Caller } from '../src/core/principal.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { chainSpooledEntries, recordAudit } from '../src/modules/audit/service.ts';
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
const cpuUsOf = (cpu: NodeJS.CpuUsage) => cpu.user + cpu.system;

const main = async () => {
  const db = await openBenchDb();
  // The chainer's timer never fires during a round: chaining is timed on its own after it.
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    AUDIT_CHAIN_INTERVAL_MS: '3600000',
  });
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const audit = ctx.audit;
  if (!audit) throw new Error('no audit trail in the context');
  const { client } = await createClient(db, systemClock, config.APP_ENV, { name: 'Bench bank', contactEmail: 'ops@bench.test' });
  const caller: Caller = { clientId: client.id, principal: { kind: 'access', client, scopes: ['admin'] } };
  const params = { userId: 'usr_bench0000000000000001' };
  let batches = 0;
  // One statement per batch: a chained append per client (conditional-append-repo.ts) or a spool row (spool-repo.ts).
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) => {
    if (sql.includes('json_populate_recordset') || sql.startsWith('insert into audit_spool')) batches += 1;
    return query(sql, params);
  }) as Db['query'];

  const record = {
    chained: (requestId: string) =>
      recordAudit(ctx, {
        type: 'personal_data.read',
        clientId: client.id,
        actor: { kind: 'client', id: client.id },
        userId: params.userId,
        requestId,
        subject: { operationId: 'getUser' },
      }),
    spooled: (requestId: string) => audit.recordOperation('getUser', caller, requestId, params),
  };

  const round = async (path: keyof typeof record, entries: number) => {
    const waits: number[] = [];
    let next = 0;
    batches = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const worker = async () => {
      while (next < entries) {
        next += 1;
        const started = performance.now();
        await record[path](`req_bench${path}${next}`);
        waits.push(performance.now() - started);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const requestCpu = cpuUsOf(process.cpuUsage(cpu0));
    const batchesWritten = batches;
    const cpu1 = process.cpuUsage();
    const chained = await chainSpooledEntries(ctx);
    const chainCpu = cpuUsOf(process.cpuUsage(cpu1));
    if (path === 'spooled' && chained !== entries) throw new Error(`chained ${chained} of ${entries} spooled entries`);
    waits.sort((a, b) => a - b);
    return {
      perSecond: Math.round(entries / seconds),
      batch: (entries / Math.max(1, batchesWritten)).toFixed(1),
      requestUs: (requestCpu / entries).toFixed(1),
      chainUs: (chainCpu / entries).toFixed(1),
      p50: percentile(waits, 0.5).toFixed(2),
      p99: percentile(waits, 0.99).toFixed(2),
    };
  };

  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
  console.log(`database ${db.kind}; ${CONCURRENCY} concurrent; ${ENTRIES} entries per round; load average ${load()}`);
  await round('chained', Math.min(2000, ENTRIES)); // warm-up
  await round('spooled', Math.min(2000, ENTRIES));
  console.log('round  path      entries/s  mean batch  CPU µs/entry request path  + chaining  wait p50 ms  wait p99 ms');
  for (let i = 1; i <= ROUNDS; i++) {
    for (const path of ['chained', 'spooled'] as const) {
      const r = await round(path, ENTRIES);
      console.log(
        `${String(i).padEnd(6)} ${path.padEnd(8)} ${String(r.perSecond).padStart(10)}  ${r.batch.padStart(10)}  ${r.requestUs.padStart(25)}  ${r.chainUs.padStart(10)}  ${r.p50.padStart(11)}  ${r.p99.padStart(11)}`,
      );
    }
  }
  console.log(`load average at the end ${load()}`);
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
