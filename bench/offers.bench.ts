/**
 * `pnpm bench:offers`: the bank's offers program at scale, on the real API in this process over HTTP.
 *
 * 1. Results: `GET /v1/offers/results` for 30, 90 and 366 days by day, week and month, BENCH_RUNS (30) times each, for a
 *    client of BENCH_CUSTOMERS (1,000,000) customers and BENCH_EVENTS (10,000,000) events, one of a tenth of both,
 *    and the baseline, a small client of BENCH_SMALL_CUSTOMERS (1,000) customers with ten events each; 20 offers
 *    each. The aggregates are generated with SQL (bench/offers/counts.ts): no user row is written for them.
 * 2. The write path, on BENCH_USERS (200) verified users of a fourth client: a click, an outcome, impressions and the
 *    day's first score read, one at a time, next to the count upsert of modules/program on its own in the same run.
 * 3. Hot rows (PostgreSQL only): concurrent clicks on one offer (one program_counts row) against clicks spread over
 *    distinct offers, over HTTP and as bare transactions, with what the sessions wait on; last, BENCH_CROSSED_PAIRS
 *    (16) pairs of customers sending impressions of the same 16 offers at once, in the same and in opposite orders.
 *
 * PostgreSQL at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) in a throwaway schema, or PGlite with
 * BENCH_DB=pglite. BENCH_PHASES=results,writes,hot picks parts.
 */
import { createApp } from '../apps/bff/src/app.ts';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import type { Db } from '../apps/bff/src/db/db.ts';
import { openPostgres } from '../apps/bff/src/db/postgres.ts';
import { ManualClock } from '../apps/bff/src/lib/clock.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { createClient } from '../apps/bff/src/modules/clients/service.ts';
import { runMonitoringUntilIdle } from '../apps/bff/src/modules/monitoring/scheduler.ts';
import { addProgramCount } from '../apps/bff/src/modules/program/repo.ts';
import { listen } from '../apps/bff/src/server.ts';
import { seedMonitoredUsers } from '../apps/bff/test/helpers/seed-users.ts';
import { ZProgramResults } from '../packages/contract/src/index.ts';
import { envInt, loadAverage, median, openBenchDb, percentile, SECRET } from './common.ts';
import { DAYS, generateProgramCounts, generateScoreBands } from './offers/counts.ts';
import { api, benchOffer } from './offers/http.ts';
import { sampleWaits, withApplicationName } from './offers/waits.ts';

const CUSTOMERS = envInt('BENCH_CUSTOMERS', 1_000_000);
const EVENTS = envInt('BENCH_EVENTS', 10_000_000);
const SMALL = envInt('BENCH_SMALL_CUSTOMERS', 1_000);
const RUNS = envInt('BENCH_RUNS', 30);
const USERS = envInt('BENCH_USERS', 200);
const WRITES = envInt('BENCH_WRITES', 300);
const HOT_SECONDS = envInt('BENCH_HOT_SECONDS', 4);
const HOT_ROUNDS = envInt('BENCH_HOT_ROUNDS', 2);
const CROSSED_PAIRS = envInt('BENCH_CROSSED_PAIRS', 16);
const POOL = envInt('BENCH_POOL', 10);
const HOT_CONCURRENCY = (process.env.BENCH_HOT_CONCURRENCY ?? '1,8,32').split(',').map(Number);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'results,writes,hot').split(','));
const RESULT_OFFERS = 20;
const WRITE_OFFERS = Math.max(32, ...HOT_CONCURRENCY);
const IMPRESSION_BATCH = 5;
const APP_NAME = `bench_offers_${process.pid}`;

const url = process.env.BENCH_DB === 'pglite' ? '' : (process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const dbUrl = url ? withApplicationName(url, APP_NAME) : '';
const db = await openBenchDb(dbUrl, POOL);

// Every statement and its rows while `trace` is set: which tables a results call reads, and how much.
let trace: { sql: string; params?: unknown[]; rows: number; ms: number }[] | null = null;
const query = db.query.bind(db);
db.query = (async (sql: string, params?: unknown[]) => {
  const at = performance.now();
  const result = await query(sql, params);
  trace?.push({ sql, params, rows: result.rows.length, ms: performance.now() - at });
  return result;
}) as Db['query'];

// The clock stands at 23:50 UTC today until the write part moves it past midnight: the day's first score reads then
// find the read cache (an hour's lifetime here) as warm as the second reads they are compared with.
const today = new Date().toISOString().slice(0, 10);
const clock = new ManualClock(`${today}T23:50:00.000Z`);
const config = loadConfig({
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: '/nonexistent',
  LOG_LEVEL: 'silent',
  READ_CACHE_TTL_MS: '3600000',
  RATE_LIMIT_USER_OPS_PER_MIN: '100000000',
});
const ctx = await buildContext({ config, db, logger: createLogger('silent'), clock });
const server = await listen(createApp(ctx), config);
config.PUBLIC_URL ??= server.url;
const http = api(server.url);

const ms = (n: number) => n.toFixed(2);
const pad = (s: string | number, n: number) => String(s).padStart(n);
const thousands = (n: number) => n.toLocaleString('en-US');
const stats = (values: number[]) => ({ p50: median(values), p95: percentile(values, 0.95) });
const dayBefore = (day: string, days: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() - days * 86_400_000).toISOString().slice(0, 10);

/** A sandbox client with its sample catalogue (8 offers, given on its first catalogue read) and `offers` in all. */
const newClient = async (name: string, offers: number) => {
  const { client } = await createClient(db, clock, config.APP_ENV, { name, contactEmail: 'ops@bank.test', secret: SECRET });
  const token = await http.token(client.id, SECRET);
  await http.expect(200, 'GET', '/v1/offers?limit=1', token);
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from offers where client_id = $1', [client.id]);
  for (let i = Number(rows[0]?.n); i < offers; i++) await http.expect(201, 'POST', '/v1/offers', token, benchOffer(i));
  const ids = await db.query<{ id: string }>('select id from offers where client_id = $1 order by created_at, id', [client.id]);
  return { clientId: client.id, token, offerIds: ids.rows.map((r) => r.id) };
};

const tablesOf = (sql: string) => [...sql.matchAll(/\b(?:from|into|update|join)\s+([a-z_]+)/gi)].map((m) => m[1]);

const resultsPart = async () => {
  const specs = [
    { label: 'large', customers: CUSTOMERS, events: EVENTS },
    { label: 'tenth', customers: Math.round(CUSTOMERS / 10), events: Math.round(EVENTS / 10) },
    { label: 'small', customers: SMALL, events: Math.round((SMALL * EVENTS) / CUSTOMERS) },
  ];
  const clients = [];
  const started = performance.now();
  for (const spec of specs) {
    const client = await newClient(`${spec.label[0]?.toUpperCase()}${spec.label.slice(1)} Bank`, RESULT_OFFERS);
    const rows = await generateProgramCounts(db, {
      clientId: client.clientId,
      offerIds: client.offerIds,
      events: spec.events,
      lastDay: today,
    });
    await generateScoreBands(db, client.clientId, spec.customers);
    clients.push({ ...spec, ...client, rows });
  }
  await db.query('analyze program_counts');
  console.log(`\nresults: ${DAYS} days of counts generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const c of clients) {
    const { rows } = await db.query<{ n: string; e: string }>(
      'select count(*)::text as n, sum(count)::text as e from program_counts where client_id = $1',
      [c.clientId],
    );
    console.log(
      `  ${c.label.padEnd(6)} ${pad(thousands(c.customers), 9)} customers, ${pad(thousands(Number(rows[0]?.e)), 10)} events, ` +
        `${c.offerIds.length} offers, ${pad(thousands(Number(rows[0]?.n)), 6)} program_counts rows`,
    );
  }

  const pathOf = (days: number, interval: string) =>
    `/v1/offers/results?from=${dayBefore(today, days - 1)}&to=${today}&interval=${interval}`;
  // The whole year once per client, checked: its totals are the events generated, its bands the customers.
  for (const c of clients) {
    const answer = await http.expect(200, 'GET', pathOf(DAYS, 'month'), c.token);
    const results = ZProgramResults.parse(answer.data);
    const { fundedAmount: _, ...counts } = results.totals;
    const events = Object.values(counts).reduce((a, b) => a + b, 0);
    if (events !== c.events || results.scores.customers !== c.customers || results.offers.length !== c.offerIds.length) {
      throw new Error(`${c.label}: results give ${events} events, ${results.scores.customers} customers`);
    }
  }
  console.log(`  checked: each client's ${DAYS}-day totals sum to its events, its score bands to its customers`);
  console.log(`\nGET /v1/offers/results over HTTP, ${RUNS} runs each, clients alternated; ms`);
  console.log(
    `${'range'.padEnd(8)}${'by'.padEnd(7)}${'client'.padEnd(8)}${pad('customers', 10)}${pad('rows read', 11)}${pad('bytes', 8)}` +
      `${pad('median', 9)}${pad('p95', 8)}${pad('× small', 9)}  of which the counts query (median)`,
  );
  const tables = new Set<string>();
  let statements = 0;
  const yearByDay = new Map<string, { rows: number; p50: number; query: number }>();
  let yearStatement: { sql: string; params?: unknown[] } | undefined;
  for (const days of [30, 90, DAYS]) {
    for (const interval of ['day', 'week', 'month']) {
      const path = pathOf(days, interval);
      const runs = new Map(clients.map((c) => [c.label, { times: [] as number[], query: [] as number[], rows: 0, bytes: 0 }]));
      for (const c of clients) for (let i = 0; i < 3; i++) await http.expect(200, 'GET', path, c.token);
      for (let run = 0; run < RUNS; run++) {
        const order = run % 2 === 0 ? clients : [...clients].reverse();
        for (const c of order) {
          trace = [];
          const answer = await http.call('GET', path, c.token);
          const read = trace;
          trace = null;
          if (answer.status !== 200) throw new Error(`results: ${answer.status} ${answer.text.slice(0, 300)}`);
          const counts = read.filter((s) => /from program_counts/.test(s.sql));
          const r = runs.get(c.label);
          if (!r) continue;
          r.times.push(answer.ms);
          r.query.push(counts.reduce((a, s) => a + s.ms, 0));
          r.rows = counts.reduce((a, s) => a + s.rows, 0);
          r.bytes = answer.text.length;
          for (const t of read.flatMap((s) => tablesOf(s.sql))) tables.add(t as string);
          if (c.label === 'large' && days === DAYS) yearStatement = counts[0];
          statements = Math.max(statements, read.length);
        }
      }
      const small = median(runs.get('small')?.times ?? []);
      for (const c of clients) {
        const r = runs.get(c.label);
        if (!r) continue;
        const s = stats(r.times);
        const q = median(r.query);
        if (days === DAYS && interval === 'day') yearByDay.set(c.label, { rows: r.rows, p50: s.p50, query: q });
        console.log(
          `${`${days} d`.padEnd(8)}${interval.padEnd(7)}${c.label.padEnd(8)}${pad(thousands(c.customers), 10)}` +
            `${pad(thousands(r.rows), 11)}${pad(thousands(r.bytes), 8)}${pad(ms(s.p50), 9)}${pad(ms(s.p95), 8)}` +
            `${pad(`${(s.p50 / small).toFixed(2)}×`, 9)}  ${ms(q)} (${Math.round((100 * q) / s.p50)} %)`,
        );
      }
    }
  }
  console.log(`tables the calls read: ${[...tables].sort().join(', ')}; at most ${statements} statements a call`);
  const large = yearByDay.get('large');
  if (yearStatement && large) {
    // PostgreSQL's own time for the large client's year of counts, against the round trip the API waits for.
    const plan = await db.query<Record<string, unknown>>(
      `explain (analyze, format json) ${yearStatement.sql}`,
      yearStatement.params,
    );
    const json = Object.values(plan.rows[0] ?? {})[0];
    const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { 'Execution Time': number }[];
    console.log(
      `the large client's ${DAYS}-day counts query: executed in ${ms(parsed[0]?.['Execution Time'] ?? 0)} ms by PostgreSQL, ` +
        `${ms(large.query)} ms as the API waits for it (rows sent and parsed), of ${ms(large.p50)} ms for the call`,
    );
  }
  for (const label of ['tenth', 'small']) {
    const other = yearByDay.get(label);
    const spec = clients.find((c) => c.label === label);
    if (!large || !other || !spec) continue;
    console.log(
      `${DAYS} days by day, large against ${label}: ${thousands(Math.round(CUSTOMERS / spec.customers))}× the customers, ` +
        `${(large.rows / other.rows).toFixed(2)}× the rows, ${(large.p50 / other.p50).toFixed(2)}× the median; ` +
        `${ms((1000 * large.p50) / large.rows)} / ${ms((1000 * other.p50) / other.rows)} ms per 1,000 rows`,
    );
  }
};

/** Sequential calls, `n` of them: the timings of `each(i)`. */
const timed = async (n: number, each: (i: number) => Promise<number>) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await each(i));
  return times;
};

const writePart = async () => {
  const w = await newClient('Write Bank', WRITE_OFFERS);
  await seedMonitoredUsers(ctx, { clientId: w.clientId, count: USERS, dueAt: clock.now(), prefix: 'offers' });
  await runMonitoringUntilIdle(ctx);
  const { rows } = await db.query<{ id: string }>('select id from users where client_id = $1 order by id', [w.clientId]);
  const users = rows.map((r) => r.id);
  const offers = w.offerIds;
  const click = (user: string, offer: string) =>
    http.expect<{ clickId: string }>(201, 'POST', `/v1/users/${user}/offers/${offer}/click`, w.token, {});
  // Warm: every user's score read (today's look counted) and a click, so every cache a write reads is loaded.
  for (const [i, user] of users.entries()) {
    await http.expect(200, 'GET', `/v1/users/${user}/credit-score`, w.token);
    await click(user, offers[i % offers.length] as string);
  }
  clock.advance(15 * 60_000);
  const day = clock.now().toISOString().slice(0, 10);

  // The count statement of modules/program/repo.ts alone: its round trip inside a transaction, and with the commit.
  const upsert = { statement: [] as number[], transaction: [] as number[] };
  const countAlone = async (offerId: string) => {
    const at = performance.now();
    await ctx.db.transaction(async (tx) => {
      const s = performance.now();
      await addProgramCount(tx, { clientId: w.clientId, day, offerId, metric: 'clicks' });
      upsert.statement.push(performance.now() - s);
    });
    upsert.transaction.push(performance.now() - at);
  };

  const looks = { first: [] as number[], again: [] as number[] };
  for (const user of users) {
    looks.first.push((await http.expect(200, 'GET', `/v1/users/${user}/credit-score`, w.token)).ms);
    looks.again.push((await http.expect(200, 'GET', `/v1/users/${user}/credit-score`, w.token)).ms);
    await countAlone('');
  }
  const clicks: string[] = [];
  const clickTimes = await timed(WRITES, async (i) => {
    const answer = await click(users[i % users.length] as string, offers[i % offers.length] as string);
    clicks.push(answer.data.clickId);
    await countAlone(offers[i % offers.length] as string);
    return answer.ms;
  });
  const outcome = (stage: string, amount?: number) => (i: number) =>
    http
      .expect(200, 'POST', `/v1/offers/clicks/${clicks[i]}/outcomes`, w.token, { stage, ...(amount ? { amount } : {}) })
      .then((a) => a.ms);
  const applied = await timed(WRITES, outcome('applied'));
  const funded = await timed(WRITES, outcome('funded', 12_000));
  // Half the users see batches of IMPRESSION_BATCH offers, each batch twice; the other half the whole catalogue at once.
  const impressions = { fresh: [] as number[], again: [] as number[], all: [] as number[] };
  const half = Math.ceil(users.length / 2);
  const impress = async (user: string, offerIds: string[], counted: number) => {
    const body = { offerIds };
    const answer = await http.expect<{ counted: number }>(200, 'POST', `/v1/users/${user}/offers/impressions`, w.token, body);
    if (answer.data.counted !== counted) throw new Error(`impressions: ${answer.data.counted} counted, not ${counted}`);
    return answer.ms;
  };
  const batches = Math.floor(offers.length / IMPRESSION_BATCH);
  for (let i = 0; i < Math.min(WRITES, half * batches); i++) {
    const user = users[i % half] as string;
    const b = Math.floor(i / half);
    const batch = offers.slice(b * IMPRESSION_BATCH, (b + 1) * IMPRESSION_BATCH);
    impressions.fresh.push(await impress(user, batch, IMPRESSION_BATCH));
    impressions.again.push(await impress(user, batch, 0));
  }
  for (const user of users.slice(half)) impressions.all.push(await impress(user, offers, offers.length));

  const u = { statement: stats(upsert.statement), transaction: stats(upsert.transaction) };
  console.log(
    `\nwrite path, one call at a time, ${users.length} users, ${offers.length} offers (${db.kind}); ms\n` +
      `count upsert alone (${upsert.statement.length}, between the calls): statement ${ms(u.statement.p50)} / p95 ${ms(u.statement.p95)}, ` +
      `in its own transaction ${ms(u.transaction.p50)} / p95 ${ms(u.transaction.p95)}`,
  );
  console.log(
    `${'operation'.padEnd(44)}${pad('n', 5)}${pad('median', 9)}${pad('p95', 8)}${pad('upserts', 9)}  share of the median: statements / own transactions`,
  );
  const row = (label: string, times: number[], upserts: number, baseline?: number[]) => {
    const s = stats(times);
    const share =
      upserts === 0
        ? '—'
        : `${((100 * upserts * u.statement.p50) / s.p50).toFixed(1)} % / ${((100 * upserts * u.transaction.p50) / s.p50).toFixed(1)} %`;
    const above = baseline ? `; ${ms(s.p50 - median(baseline))} above the “again” row` : '';
    console.log(
      `${label.padEnd(44)}${pad(times.length, 5)}${pad(ms(s.p50), 9)}${pad(ms(s.p95), 8)}${pad(upserts, 9)}  ${share}${above}`,
    );
  };
  row('POST …/offers/{offerId}/click', clickTimes, 1);
  row('POST …/outcomes applied', applied, 1);
  row('POST …/outcomes funded (after applied)', funded, 2);
  row(`POST …/offers/impressions, ${IMPRESSION_BATCH} new`, impressions.fresh, IMPRESSION_BATCH, impressions.again);
  row(`  again: the same ${IMPRESSION_BATCH} (none counted)`, impressions.again, 0);
  row(`POST …/offers/impressions, all ${offers.length} new`, impressions.all, offers.length, impressions.again);
  row("GET …/credit-score, the day's first (a look)", looks.first, 1, looks.again);
  row('  again: the same read (look already counted)', looks.again, 0);
  return { ...w, users };
};

/** `concurrency` loops doing `work(loop, n)` for `seconds`: the rate, the latencies, what the sessions waited on. */
const load = async (concurrency: number, seconds: number, work: (loop: number, n: number) => Promise<void>) => {
  const stop = url ? await sampleWaits(url, APP_NAME) : async () => '';
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      for (let n = 0; performance.now() < end; n++) {
        const at = performance.now();
        await work(loop, n);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const rate = latencies.length / ((performance.now() - started) / 1000);
  return { rate, ...stats(latencies), waits: await stop() };
};

const hotPart = async (w: Awaited<ReturnType<typeof writePart>>) => {
  if (!url) {
    console.log('\nhot row: PostgreSQL only (PGlite runs one statement at a time)');
    return;
  }
  console.log(
    `\nconcurrent clicks of one client on one day, ${HOT_SECONDS} s each, ${HOT_ROUNDS} rounds in alternating order, API pool ${POOL}:\n` +
      'one offer (one program_counts row) against one offer per caller (distinct rows)',
  );
  console.log(
    `${'callers'.padEnd(9)}${'round'.padEnd(7)}${'offers'.padEnd(10)}${pad('clicks/s', 9)}${pad('p50 ms', 8)}${pad('p95', 8)}  PostgreSQL sessions`,
  );
  const rates = new Map<string, number[]>();
  const clickAs = (c: number, kind: 'one' | 'distinct') => async (loop: number, n: number) => {
    const offer = kind === 'one' ? w.offerIds[0] : w.offerIds[loop % w.offerIds.length];
    const user = w.users[(loop + n * c) % w.users.length];
    await http.expect(201, 'POST', `/v1/users/${user}/offers/${offer}/click`, w.token, {});
  };
  await load(8, 1, clickAs(8, 'distinct')); // warm-up, not shown
  for (const c of HOT_CONCURRENCY) {
    for (let round = 1; round <= HOT_ROUNDS; round++) {
      const kinds = round % 2 === 1 ? (['one', 'distinct'] as const) : (['distinct', 'one'] as const);
      for (const kind of kinds) {
        const r = await load(c, HOT_SECONDS, clickAs(c, kind));
        rates.set(`${kind}${c}`, [...(rates.get(`${kind}${c}`) ?? []), r.rate]);
        console.log(
          `${String(c).padEnd(9)}${String(round).padEnd(7)}${kind.padEnd(10)}${pad(r.rate.toFixed(0), 9)}${pad(ms(r.p50), 8)}` +
            `${pad(ms(r.p95), 8)}  ${r.waits}`,
        );
      }
    }
  }

  // The same question without HTTP or the app: transactions of the count upsert alone, and of the upsert followed by
  // a NOTIFY as the click's outbox event raises one, on one row or on a row per caller.
  const max = Math.max(...HOT_CONCURRENCY);
  const bare = await openPostgres({ connectionString: dbUrl, schema: db.schema, max });
  const day = clock.now().toISOString().slice(0, 10);
  console.log(`\nbare transactions (a pool of ${max}), ${HOT_SECONDS} s each: begin; the count upsert [; pg_notify]; commit`);
  console.log(
    `${'callers'.padEnd(9)}${'rows'.padEnd(10)}${'notify'.padEnd(8)}${pad('tx/s', 8)}${pad('p50 ms', 8)}${pad('p95', 8)}  PostgreSQL sessions`,
  );
  try {
    for (const c of HOT_CONCURRENCY) {
      for (const notify of [false, true]) {
        for (const kind of ['one', 'distinct'] as const) {
          const r = await load(c, HOT_SECONDS, (loop) =>
            bare.transaction(async (tx) => {
              const offerId = kind === 'one' ? 'off_hot' : `off_hot${loop}`;
              await addProgramCount(tx, { clientId: 'cli_benchhotrow', day, offerId, metric: 'clicks' });
              if (notify) await tx.query(`select pg_notify('bench_offers_${process.pid}', '')`);
            }),
          );
          console.log(
            `${String(c).padEnd(9)}${kind.padEnd(10)}${(notify ? 'yes' : 'no').padEnd(8)}${pad(r.rate.toFixed(0), 8)}` +
              `${pad(ms(r.p50), 8)}${pad(ms(r.p95), 8)}  ${r.waits}`,
          );
        }
      }
    }
  } finally {
    await bare.close();
  }
  const mean = (values: number[] = []) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  for (const c of HOT_CONCURRENCY) {
    const one = mean(rates.get(`one${c}`));
    const distinct = mean(rates.get(`distinct${c}`));
    console.log(
      `${c} caller${c === 1 ? '' : 's'} over HTTP, mean of the rounds: one row ${one.toFixed(0)} clicks/s, distinct rows ${distinct.toFixed(0)}: ` +
        `${(one / distinct).toFixed(2)}×`,
    );
  }
};

/**
 * Impressions of one client's customers on one day, sent two at a time: both batches name the same offers, in the same
 * order or in opposite orders (as two customers whose offers rank differently would see them). Each batch counts its
 * offers one upsert at a time, so opposite orders lock the same program_counts rows in opposite orders.
 */
const crossedImpressions = async (w: Awaited<ReturnType<typeof writePart>>) => {
  const batch = w.offerIds.slice(0, 16);
  const pairs = Math.min(CROSSED_PAIRS, Math.floor(w.users.length / 2));
  console.log(
    `\nimpressions of ${batch.length} offers by two customers at once, ${pairs} pairs, 8 pairs at a time, each order on a day of its own`,
  );
  console.log(
    `${'order'.padEnd(10)}${'answers'.padEnd(24)}${pad('p50 ms', 8)}${pad('p95', 9)}${pad('max', 9)}  counted / impression rows`,
  );
  for (const order of ['same', 'opposite'] as const) {
    clock.advance(86_400_000);
    const day = clock.now().toISOString().slice(0, 10);
    const token = await http.token(w.clientId, SECRET);
    const statuses = new Map<number, number>();
    const times: number[] = [];
    let refused = '';
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < pairs; i = next++) {
          const second = order === 'same' ? batch : [...batch].reverse();
          const answers = await Promise.all([
            http.call('POST', `/v1/users/${w.users[2 * i]}/offers/impressions`, token, { offerIds: batch }),
            http.call('POST', `/v1/users/${w.users[2 * i + 1]}/offers/impressions`, token, { offerIds: second }),
          ]);
          for (const a of answers) {
            if (a.status !== 200) refused ||= a.text.slice(0, 160);
            statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
            times.push(a.ms);
          }
        }
      }),
    );
    const took = (performance.now() - started) / 1000;
    const { rows } = await db.query<{ counted: number; seen: number }>(
      `select (select coalesce(sum(count), 0)::int from program_counts where client_id = $1 and day = $2 and metric = 'impressions') as counted,
         (select count(*)::int from offer_impressions where client_id = $1 and day = $2) as seen`,
      [w.clientId, day],
    );
    const answers = [...statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
    const s = stats(times);
    console.log(
      `${order.padEnd(10)}${answers.padEnd(24)}${pad(ms(s.p50), 8)}${pad(ms(s.p95), 9)}${pad(ms(Math.max(...times)), 9)}${pad(took.toFixed(1), 8)}  ` +
        `${rows[0]?.counted} / ${rows[0]?.seen}`,
    );
    if (refused) console.log(`  refused with: ${refused}`);
  }
};

const startedAt = performance.now();
try {
  console.log(`database ${db.schema ? `PostgreSQL (${db.schema})` : 'PGlite (in process)'}; load average ${loadAverage()}`);
  if (PHASES.has('results')) await resultsPart();
  if (PHASES.has('writes') || PHASES.has('hot')) {
    const w = await writePart();
    if (PHASES.has('hot')) await hotPart(w);
    // Last: it moves the clock a day at a time.
    if (PHASES.has('hot') && url) await crossedImpressions(w);
  }
  console.log(`\nload average at the end ${loadAverage()}; ${((performance.now() - startedAt) / 1000).toFixed(0)} s in all`);
} finally {
  await server.close();
  await db.close();
}
