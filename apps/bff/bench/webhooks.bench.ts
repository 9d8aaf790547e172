/**
 * Webhook delivery end to end: enrolments commit `user.enrolled` events, the dispatcher (the real worker
 * code, polling as in production) fans them out and POSTs them, signed, to a local HTTPS receiver.
 * Prints delivered events/s and p50/p99 from commit (the enrolment's transaction resolved) to receipt.
 *
 *   pnpm bench:webhooks                               # in-memory PGlite, 2,000 events
 *   DATABASE_URL=postgres://… pnpm bench:webhooks     # PostgreSQL, in a throwaway schema
 *   BENCH_RATE=100 pnpm bench:webhooks                # paced at 100 events/s: latency below saturation
 *   BENCH_EVENTS=5000 BENCH_PRODUCERS=8 WEBHOOK_POLL_INTERVAL_MS=100 pnpm bench:webhooks
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import selfsigned from 'selfsigned';
import { buildContext } from '../src/bootstrap.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import type { Caller } from '../src/http/route.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { enrollUser } from '../src/modules/users/service.ts';
import { startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { createWebhook } from '../src/modules/webhooks/service.ts';

const envInt = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const EVENTS = envInt('BENCH_EVENTS', 2000);
const PRODUCERS = envInt('BENCH_PRODUCERS', 8);
/** Events per second to produce; unset = as fast as the producers can (saturation). */
const RATE = process.env.BENCH_RATE ? envInt('BENCH_RATE', 1) : undefined;

const openBenchDb = async (): Promise<Db> => {
  const url = process.env.DATABASE_URL;
  if (!url) return openPglite();
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema });
  return {
    ...db,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

const main = async () => {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const caFile = path.join(tmpdir(), `bench-webhook-ca-${process.pid}.pem`);
  writeFileSync(caFile, pems.cert);

  const committedAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let allReceived: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allReceived = resolve;
  });
  const receiver = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { userId: string } };
      if (!receivedAt.has(body.data.userId)) receivedAt.set(body.data.userId, performance.now());
      res.writeHead(200).end();
      if (receivedAt.size === EVENTS) allReceived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;

  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    WEBHOOK_CA_FILE: caFile,
    WEBHOOK_POLL_INTERVAL_MS: process.env.WEBHOOK_POLL_INTERVAL_MS ?? '250',
  });
  const db = await openBenchDb();
  const ctx = await buildContext({ config, db, logger: createLogger('silent') });
  const { client } = await createClient(db, systemClock, config.APP_ENV, { name: 'Bench bank', contactEmail: 'ops@bank.test' });
  const caller = { clientId: client.id, principal: { kind: 'client' } } as unknown as Caller;
  await createWebhook(ctx, caller, {
    url: `https://127.0.0.1:${port}/bench`,
    events: ['user.enrolled'],
    secret: 'whsec_bench_0123456789',
  });
  const dispatcher = startDispatcher(ctx);

  const started = performance.now();
  let next = 0;
  const producer = async () => {
    while (next < EVENTS) {
      const i = next++;
      if (RATE) {
        const due = started + (i * 1000) / RATE;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const user = await enrollUser(ctx, caller, {
        externalUserId: `bench-${i}`,
        email: `bench${i}@example.test`,
        firstName: 'Bench',
        lastName: 'User',
        ssn: '1234',
        dateOfBirth: '1985-04-12',
        address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
      });
      committedAt.set(user.userId, performance.now());
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
  const producedIn = performance.now() - started;
  await done;
  const elapsed = performance.now() - started;
  const latencies = [...committedAt].map(([id, at]) => (receivedAt.get(id) ?? at) - at).sort((a, b) => a - b);

  console.log(`database            ${db.kind}`);
  console.log(
    `events              ${EVENTS} (${RATE ? `paced at ${RATE}/s` : 'unpaced'}, producers ${PRODUCERS}, poll ${config.WEBHOOK_POLL_INTERVAL_MS} ms, concurrency ${config.WEBHOOK_CONCURRENCY})`,
  );
  console.log(`committed           ${(EVENTS / (producedIn / 1000)).toFixed(0)} events/s`);
  console.log(`delivered           ${(EVENTS / (elapsed / 1000)).toFixed(0)} events/s (first commit to last receipt)`);
  console.log(
    `commit → receipt    p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
  );

  await dispatcher.stop();
  await new Promise<void>((resolve) => {
    receiver.close(() => resolve());
    receiver.closeAllConnections();
  });
  await db.close();
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
