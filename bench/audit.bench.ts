/**
 * `pnpm bench:audit`: what recording a read in the audit trail costs, in isolation. BENCH_CONCURRENCY (64) concurrent
 * callers record `getUser` reads through the dispatcher's hook (`ctx.audit.recordOperation`: one audit_spool row per
 * batch, each caller waiting for its batch's commit as a read does); the chainer then links the round's entries into
 * the client's chain, timed on its own. The baseline, alternated round by round, is the same callers recording
 * nothing: the loop's own cost. Per round: entries/s, the mean batch, this process's CPU µs per entry on the request
 * path (above the baseline's) and for chaining (with PGlite the database's work is in-process and included), the wait
 * per entry; at the end the bytes per chained entry.
 *
 *   pnpm bench:audit                                                        # in-memory PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test pnpm bench:audit   # PostgreSQL, a throwaway schema
 */
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import type { Caller } from '../apps/bff/src/core/principal.ts';
import type { Db } from '../apps/bff/src/db/db.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { chainSpooledEntries } from '../apps/bff/src/modules/audit/service.ts';
import { createClient } from '../apps/bff/src/modules/clients/service.ts';
import { envInt, loadAverage, openBenchDb, percentile } from './common.ts';

const ENTRIES = envInt('BENCH_ENTRIES', 20_000);
const ROUNDS = envInt('BENCH_ROUNDS', 3);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 64);

const db = await openBenchDb();
// The chainer's timer never fires during a round: chaining is timed on its own after it.
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent', AUDIT_CHAIN_INTERVAL_MS: '3600000' });
const ctx = await buildContext({ config, db, logger: createLogger('silent') });
const audit = ctx.audit;
if (!audit) throw new Error('no audit trail in the context');
const { client } = await createClient(db, ctx.clock, config.APP_ENV, { name: 'Bench bank', contactEmail: 'ops@bench.test' });
const caller: Caller = { clientId: client.id, principal: { kind: 'access', client, scopes: ['admin'] } };
const params = { userId: 'usr_bench0000000000000001' };
let batches = 0;
const query = db.query.bind(db);
db.query = ((sql: string, values?: unknown[]) => {
  if (sql.startsWith('insert into audit_spool')) batches += 1;
  return query(sql, values);
}) as Db['query'];
const record = {
  nothing: () => Promise.resolve(),
  spooled: (requestId: string) => audit.recordOperation('getUser', caller, requestId, params),
};

const round = async (how: keyof typeof record, entries: number) => {
  const waits: number[] = [];
  let next = 0;
  batches = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    while (next < entries) {
      next += 1;
      const at = performance.now();
      await record[how](`req_bench_${how}_${next}`);
      waits.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  const chainCpu = process.cpuUsage();
  const chained = how === 'spooled' ? await chainSpooledEntries(ctx) : entries;
  const chain = process.cpuUsage(chainCpu);
  if (chained !== entries) throw new Error(`chained ${chained} of ${entries} spooled entries`);
  return {
    perSecond: entries / seconds,
    batch: entries / Math.max(1, batches),
    requestUs: (user + system) / entries,
    chainUs: how === 'spooled' ? (chain.user + chain.system) / entries : 0,
    p50: percentile(waits, 0.5),
    p99: percentile(waits, 0.99),
  };
};

try {
  console.log(
    `database ${db.kind}; ${CONCURRENCY} concurrent callers; ${ENTRIES} entries a round; load average ${loadAverage()}`,
  );
  await round('spooled', Math.min(2000, ENTRIES)); // warm-up
  console.log(
    'round  recording  entries/s  mean batch  CPU µs/entry, request path (above baseline)  + chaining  wait p50 / p99 ms',
  );
  for (let i = 1; i <= ROUNDS; i++) {
    const baseline = await round('nothing', ENTRIES);
    const r = await round('spooled', ENTRIES);
    for (const [how, s] of [
      ['nothing', baseline],
      ['spooled', r],
    ] as const) {
      const above = how === 'spooled' ? ` (${(s.requestUs - baseline.requestUs).toFixed(1)})` : '';
      console.log(
        `${String(i).padEnd(6)} ${how.padEnd(9)} ${s.perSecond.toFixed(0).padStart(10)}  ${(how === 'spooled' ? s.batch.toFixed(1) : '—').padStart(10)}  ` +
          `${`${s.requestUs.toFixed(1)}${above}`.padStart(43)}  ${s.chainUs.toFixed(1).padStart(10)}  ${s.p50.toFixed(2)} / ${s.p99.toFixed(2)}`,
      );
    }
  }
  const size = await db.query<{ bytes: string; n: string }>(
    `select pg_total_relation_size('audit_events')::text as bytes, (select count(*) from audit_events)::text as n`,
  );
  console.log(`audit_events with indexes: ${Math.round(Number(size.rows[0]?.bytes) / Number(size.rows[0]?.n))} bytes per entry`);
  console.log(`load average at the end ${loadAverage()}`);
} finally {
  await db.close();
}
