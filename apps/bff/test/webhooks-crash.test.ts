import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../src/bootstrap.ts';
import type { AppContext } from '../src/context.ts';
import type { Caller } from '../src/core/principal.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createLogger } from '../src/logger.ts';
import { createClient } from '../src/modules/clients/service.ts';
import { startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { createWebhook } from '../src/modules/webhooks/service.ts';
import { recordEvent } from '../src/outbox/outbox.ts';
import { enrollment, testConfig } from './helpers/harness.ts';
import { checkedFetch } from './helpers/openapi-check.ts';
import { startServerProcess } from './helpers/processes.ts';
import { sharedDatabase } from './helpers/shared-database.ts';
import { openTestDb, usingPostgres } from './helpers/test-db.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

const CLIENT_ID = 'cli_sbx_crashtest01';
const CLIENT_SECRET = 'crash-test-secret-0123456789';
const HOOK_SECRET = 'whsec_crash_0123456789abcdef';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const api = async (base: string, method: string, p: string, token: string, body: unknown) =>
  checkedFetch(`${base}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('durability', { timeout: 180_000 }, () => {
  it('delivers every event committed before a SIGKILL once the server is back', async () => {
    const db = await sharedDatabase('crash');
    const env = {
      ...db.env,
      BOOTSTRAP_CLIENT_ID: CLIENT_ID,
      BOOTSTRAP_CLIENT_SECRET: CLIENT_SECRET,
      WEBHOOK_CA_FILE: receiver.caFile,
      WEBHOOK_POLL_INTERVAL_MS: '100',
      // Bounds the lease a killed worker leaves behind (timeout + 10 s), so the test waits seconds, not minutes.
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    try {
      const first = await startServerProcess(env);
      const tokenRes = await checkedFetch(`${first.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
      });
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };
      const hook = await api(first.url, 'POST', '/v1/webhooks', token, {
        url: `${receiver.url}/crash`,
        events: ['user.enrolled'],
        secret: HOOK_SECRET,
      });
      expect(hook.status).toBe(201);

      // Slow answers keep deliveries in flight, so the kill lands mid-delivery as well as mid-enrolment.
      receiver.delayMs = 600;
      const committed: string[] = [];
      let killed = false;
      const producer = async () => {
        while (!killed) {
          try {
            const res = await fetch(`${first.url}/v1/users/enroll`, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify(enrollment()),
            });
            if (res.status === 201) committed.push(((await res.json()) as { data: { userId: string } }).data.userId);
          } catch {
            // the request the kill interrupted: its commit is unknown, so it is not counted
          }
        }
      };
      const producers = [producer(), producer(), producer()];
      await waitFor(() => expect(committed.length).toBeGreaterThanOrEqual(40), 60_000);
      // Kill only while deliveries lag behind commits, so the kill always interrupts owed work.
      await waitFor(() => {
        expect(receiver.received.length).toBeGreaterThan(5);
        const delivered = new Set(receiver.received.map((d) => d.body.data.userId));
        expect(committed.filter((id) => !delivered.has(id)).length).toBeGreaterThanOrEqual(3);
      }, 30_000);
      const exited = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      killed = true;
      await Promise.all([exited, ...producers]);
      const receivedAtKill = new Set(receiver.received.map((d) => d.body.data.userId));
      const missingAtKill = committed.filter((id) => !receivedAtKill.has(id)).length;

      const second = await startServerProcess(env);
      try {
        await waitFor(() => {
          const got = new Set(receiver.received.map((d) => d.body.data.userId));
          expect(committed.filter((id) => !got.has(id))).toEqual([]);
        }, 90_000);
      } finally {
        await second.stop();
      }
      // The kill really interrupted work: some committed events had not arrived yet.
      expect(missingAtKill).toBeGreaterThan(0);
    } finally {
      receiver.delayMs = 0;
      await db.drop();
    }
  });
});

describe.skipIf(!usingPostgres)('several workers on one PostgreSQL', { timeout: 120_000 }, () => {
  // PGlite is one process's database, so this only means something on PostgreSQL.
  it('never makes the same attempt twice at once, and delivers each event exactly once when all is healthy', async () => {
    const base = (await openTestDb()) as Db & { schema: string };
    const dbs: Db[] = [base];
    const contexts: AppContext[] = [];
    const inFlight = new Map<string, number>();
    const overlaps: string[] = [];
    const local = await startReceiver(
      (d) => {
        const n = (inFlight.get(d.body.id) ?? 0) + 1;
        inFlight.set(d.body.id, n);
        if (n > 1) overlaps.push(d.body.id);
      },
      (d) => inFlight.set(d.body.id, (inFlight.get(d.body.id) ?? 1) - 1),
    );
    local.delayMs = 20;
    const config = testConfig({ WEBHOOK_CA_FILE: local.caFile, WEBHOOK_POLL_INTERVAL_MS: '50', WEBHOOK_CONCURRENCY: '8' });
    const logger = createLogger('silent');
    try {
      contexts.push(await buildContext({ config, db: base, logger }));
      for (let i = 0; i < 2; i++) {
        const db = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: base.schema, max: 5 });
        dbs.push(db);
        contexts.push(await buildContext({ config, db, logger }));
      }
      const [ctx] = contexts as [AppContext];
      const { client } = await createClient(base, ctx.clock, 'sandbox', { name: 'Workers', contactEmail: 'ops@bank.test' });
      await createWebhook(ctx, { clientId: client.id } as Caller, {
        url: `${local.url}/workers`,
        events: ['user.enrolled'],
        secret: HOOK_SECRET,
      });
      const eventIds: string[] = [];
      for (let i = 0; i < 120; i++) {
        const event = await base.transaction((tx) =>
          recordEvent(tx, ctx.ids, {
            clientId: client.id,
            type: 'user.enrolled',
            data: {
              userId: `usr_worker${String(i).padStart(8, '0')}`,
              externalUserId: `w-${i}`,
              email: 'w@example.test',
              status: 'pending_verification',
            },
            createdAt: new Date(),
          }),
        );
        eventIds.push(event.id);
      }
      const dispatchers = contexts.map((c) => startDispatcher(c));
      try {
        await waitFor(() => expect(new Set(local.received.map((d) => d.body.id)).size).toBe(eventIds.length), 60_000);
      } finally {
        await Promise.all(dispatchers.map((d) => d.stop()));
      }
      expect(overlaps).toEqual([]);
      expect(local.received).toHaveLength(eventIds.length);
      const attempts = await base.query<{ n: number }>('select count(*)::int as n from webhook_attempts');
      expect(attempts.rows[0]?.n).toBe(eventIds.length);
    } finally {
      await local.close();
      for (const db of dbs.slice(1)) await db.close();
      await base.close();
    }
  });
});

describe.skipIf(!usingPostgres)('several worker processes on one PostgreSQL', { timeout: 120_000 }, () => {
  it('two server processes split the work without ever sending one attempt twice at once', async () => {
    const shared = await sharedDatabase('procs');
    const inFlight = new Map<string, number>();
    const overlaps: string[] = [];
    const local = await startReceiver(
      (d) => {
        const n = (inFlight.get(d.body.id) ?? 0) + 1;
        inFlight.set(d.body.id, n);
        if (n > 1) overlaps.push(d.body.id);
      },
      (d) => inFlight.set(d.body.id, (inFlight.get(d.body.id) ?? 1) - 1),
    );
    local.delayMs = 20;
    const env = {
      ...shared.env,
      BOOTSTRAP_CLIENT_ID: CLIENT_ID,
      BOOTSTRAP_CLIENT_SECRET: CLIENT_SECRET,
      WEBHOOK_CA_FILE: local.caFile,
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    const servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    const db = await shared.open();
    try {
      const [one] = servers;
      if (!one) throw new Error('no server');
      const tokenRes = await checkedFetch(`${one.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET }),
      });
      const { access_token: token } = (await tokenRes.json()) as { access_token: string };
      const hook = await api(one.url, 'POST', '/v1/webhooks', token, {
        url: `${local.url}/procs`,
        events: ['user.enrolled'],
        secret: HOOK_SECRET,
      });
      expect(hook.status).toBe(201);
      const ids = { id: (prefix: string) => `${prefix}_${Math.random().toString(36).slice(2, 14)}proc` };
      const eventIds: string[] = [];
      for (let i = 0; i < 100; i++) {
        const event = await db.transaction((tx) =>
          recordEvent(tx, ids, {
            clientId: CLIENT_ID,
            type: 'user.enrolled',
            data: {
              userId: `usr_proc${String(i).padStart(8, '0')}`,
              externalUserId: `p-${i}`,
              email: 'p@example.test',
              status: 'pending_verification',
            },
            createdAt: new Date(),
          }),
        );
        eventIds.push(event.id);
      }
      await waitFor(() => expect(new Set(local.received.map((d) => d.body.id)).size).toBe(eventIds.length), 60_000);
      expect(overlaps).toEqual([]);
      expect(local.received).toHaveLength(eventIds.length);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db.close();
      await local.close();
      await shared.drop();
    }
  });
});
