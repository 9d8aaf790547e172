/**
 * `pnpm bench:invalidation`: how long another instance keeps serving a cached read after a write, on PostgreSQL.
 *
 * Two API instances in this process, each with its own pool and LISTEN session, on one throwaway schema (as two
 * machines would be). For each of BENCH_SAMPLES (200) users: instance B reads the user (now cached there), instance A
 * deletes it, and B is asked again every millisecond until it answers 404. Prints p50 / p99 / max of the time from
 * A's answer to B's first 404, against the baseline of one uncached read on B (the round trip every poll includes).
 */
import { createApp } from '../apps/bff/src/app.ts';
import { buildContext } from '../apps/bff/src/bootstrap.ts';
import { loadConfig } from '../apps/bff/src/config.ts';
import { openPostgres } from '../apps/bff/src/db/postgres.ts';
import { createLogger } from '../apps/bff/src/logger.ts';
import { listen } from '../apps/bff/src/server.ts';
import { benchClient, enrolment, envInt, openBenchDb, percentile } from './common.ts';

const SAMPLES = envInt('BENCH_SAMPLES', 200);
const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench:invalidation needs DATABASE_URL (PostgreSQL): NOTIFY between instances is what it measures');
const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
const dbA = await openBenchDb(url);
const dbB = await openPostgres({ connectionString: url, schema: dbA.schema });
const logger = createLogger('silent');
const a = await listen(createApp(await buildContext({ config, db: dbA, logger })), config);
const b = await listen(createApp(await buildContext({ config, db: dbB, logger })), config);
try {
  const { token } = await benchClient(dbA, a.url);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const timed = async (base: string, path: string, method = 'GET', body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, text, ms: performance.now() - started };
  };
  const delays: number[] = [];
  const uncached: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const enrolled = await timed(a.url, '/v1/users/enroll', 'POST', enrolment(`bench-${i}-${Date.now()}`));
    const { userId } = (JSON.parse(enrolled.text) as { data: { userId: string } }).data;
    const first = await timed(b.url, `/v1/users/${userId}`);
    if (first.status !== 200) throw new Error('B cannot read the user');
    uncached.push(first.ms);
    if ((await timed(a.url, `/v1/users/${userId}`, 'DELETE')).status !== 200) throw new Error('A cannot delete the user');
    const deletedAt = performance.now();
    while ((await timed(b.url, `/v1/users/${userId}`)).status !== 404) {
      if (performance.now() - deletedAt > 5_000) throw new Error('B still serves a deleted user after 5 s');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    delays.push(performance.now() - deletedAt);
  }
  const line = (values: number[]) =>
    [0.5, 0.99, 1].map((p) => `${p === 1 ? 'max' : `p${p * 100}`} ${percentile(values, p).toFixed(2)}`).join('  ');
  console.log(`${SAMPLES} deletions on instance A; ms until instance B answers 404: ${line(delays)}`);
  console.log(`baseline, one uncached read of the user on B (ms):              ${line(uncached)}`);
} finally {
  await a.close();
  await b.close();
  await dbB.close();
  await dbA.close();
}
