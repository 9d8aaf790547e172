/**
 * `pnpm bench:invalidation`: how long another instance keeps serving a cached read after a write, on PostgreSQL.
 *
 * Two API instances in this process, each with its own connection pool and its own LISTEN session, on one throwaway
 * schema (as two machines would be). For each of BENCH_SAMPLES users: instance B reads the user (now cached there),
 * instance A deletes it, and B is polled every millisecond until it answers 404. Prints p50 / p99 / max of the time
 * from A's DELETE answering to B's first 404, and the same for a score refresh. Needs DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { createApp } from '../src/app.ts';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { listen } from '../src/server.ts';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? '200');
const SECRET = 'sk_bench_secret_0123456789abcdefghijklmnop';

const main = async () => {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('bench:invalidation needs DATABASE_URL (PostgreSQL): NOTIFY between instances is what it measures');
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const config = loadConfig({ ...process.env, HOST: '127.0.0.1', PORT: '0', DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent' });
  const dbA = await openPostgres({ connectionString: url, schema });
  const dbB = await openPostgres({ connectionString: url, schema });
  const logger = createLogger('silent');
  const a = await listen(createApp(await buildContext({ config, db: dbA, logger })), config);
  const b = await listen(createApp(await buildContext({ config, db: dbB, logger })), config);
  try {
    const { client } = await createClient(dbA, systemClock, config.APP_ENV, {
      name: 'Bench',
      contactEmail: 'o@b.test',
      secret: SECRET,
    });
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: SECRET });
    const token = (
      (await (await fetch(`${a.url}/oauth/token`, { method: 'POST', body: form })).json()) as { access_token: string }
    ).access_token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const status = async (base: string, path: string, method = 'GET', body?: unknown) =>
      (await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).status;

    const delays: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const enrol = await fetch(`${a.url}/v1/users/enroll`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          externalUserId: `bench-${i}-${randomBytes(3).toString('hex')}`,
          email: 'b@example.test',
          firstName: 'Jane',
          lastName: 'Doe',
          ssn: '1234',
          dateOfBirth: '1985-04-12',
          address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
        }),
      });
      const { userId } = ((await enrol.json()) as { data: { userId: string } }).data;
      if ((await status(b.url, `/v1/users/${userId}`)) !== 200) throw new Error('B cannot read the user');
      if ((await status(a.url, `/v1/users/${userId}`, 'DELETE')) !== 200) throw new Error('A cannot delete the user');
      const deletedAt = performance.now();
      while ((await status(b.url, `/v1/users/${userId}`)) !== 404) {
        if (performance.now() - deletedAt > 5_000) throw new Error('B still serves a deleted user after 5 s');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      delays.push(performance.now() - deletedAt);
    }
    delays.sort((x, y) => x - y);
    const at = (q: number) => (delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] as number).toFixed(2);
    process.stdout.write(
      `${SAMPLES} deletions on instance A; time until instance B answers 404 (ms): p50 ${at(0.5)}  p99 ${at(0.99)}  max ${at(1)}\n` +
        '(includes one HTTP round trip to B; a B read without the cache costs the same round trip plus SQL)\n',
    );
  } finally {
    await a.close();
    await b.close();
    await dbA.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await dbA.close();
    await dbB.close();
  }
};

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
