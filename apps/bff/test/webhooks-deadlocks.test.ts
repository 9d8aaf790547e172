import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { claimDeliveryJobs, fanOutBatch, settleAttempts } from '../src/modules/webhooks/queue-repo.ts';
import { recordEvent } from '../src/outbox/outbox.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { usingPostgres } from './helpers/test-db.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

/**
 * Recover, delete and the fan-out write the same delivery rows and lock the same subscriptions. On PostgreSQL (PGlite
 * has one connection and cannot deadlock) they run side by side here, many at once: no answer may be a 5xx, and every
 * event reaches every subscription that is left, once.
 */
const SECRET = 'whsec_deadlocks_0123456789abcdef';

/** A database of its own with room for many transactions at once (the suite's default pool holds five). */
const openWidePostgres = async (): Promise<Db> => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema, max: 40 });
  return {
    ...db,
    close: async () => {
      await db.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      await db.close();
    },
  };
};

const commitEvents = (app: TestApp, clientId: string, count: number, tag: string) =>
  app.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await recordEvent(tx, app.ctx.ids, {
        clientId,
        type: 'user.enrolled',
        data: {
          userId: `usr_${tag}${String(i).padStart(8, '0')}`,
          externalUserId: `${tag}-${i}`,
          email: 'deadlock@example.test',
          status: 'pending_verification',
        },
        createdAt: app.clock.now(),
      });
    }
  });

/** The worker's fan-out, in a loop until nothing is left; the deadlocks it lost are counted, and it goes on. */
const fanOutAll = async (app: TestApp, lost: { deadlocks: number }) => {
  for (;;) {
    try {
      const copied = await app.db.transaction((tx) => fanOutBatch(tx, app.ctx.ids, app.clock.now(), 50));
      if (copied === 0) return;
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01') throw error;
      lost.deadlocks += 1;
    }
  }
};

const subscribe = async (app: TestApp, token: string, receiver: Receiver) => {
  const res = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: receiver.url, events: ['user.enrolled'], secret: SECRET },
  });
  expect(res.status).toBe(201);
  return res.body.data.webhookId as string;
};

/** Each receiver got each event id exactly once. */
const expectEachOnce = (receiver: Receiver, eventIds: string[]) => {
  const counts = new Map<string, number>();
  for (const delivery of receiver.received) counts.set(delivery.body.id, (counts.get(delivery.body.id) ?? 0) + 1);
  expect([...counts.keys()].sort()).toEqual([...eventIds].sort());
  expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
};

const eventIdsOf = async (app: TestApp, clientId: string) => {
  const { rows } = await app.db.query<{ id: string }>('select id from outbox_events where client_id = $1', [clientId]);
  return rows.map((r) => r.id);
};

describe.skipIf(!usingPostgres)('recover, delete and the fan-out side by side (PostgreSQL)', () => {
  let app: TestApp;
  let db: Db;
  const receivers: Receiver[] = [];
  const newReceiver = async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    return receiver;
  };

  beforeAll(async () => {
    const ca = await newReceiver();
    db = await openWidePostgres();
    app = await startTestApp({ db, config: { WEBHOOK_CA_FILE: ca.caFile, WEBHOOK_POLL_INTERVAL_MS: '20' } });
  });
  afterAll(async () => {
    await app?.close();
    for (const receiver of receivers) await receiver.close();
  });

  it('answers 60 concurrent recovers made while new events fan out without a 5xx, and delivers each event once', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const hooks: { id: string; receiver: Receiver }[] = [];
    for (let i = 0; i < 3; i++) {
      const receiver = await newReceiver();
      hooks.push({ id: await subscribe(app, token, receiver), receiver });
    }
    const since = new Date(app.clock.now().getTime() - 60_000).toISOString();
    const statuses: number[] = [];
    const lost = { deadlocks: 0 };
    for (let round = 0; round < 3; round++) {
      await commitEvents(app, client.id, 300, `r${round}`);
      const recovers = Array.from({ length: 20 }, (_, i) =>
        app
          .request('POST', `/v1/webhooks/${hooks[i % hooks.length]?.id}/recover`, { token, body: { since } })
          .then((res) => statuses.push(res.status)),
      );
      await Promise.all([fanOutAll(app, lost), fanOutAll(app, lost), ...recovers]);
    }
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(statuses.filter((status) => status !== 202)).toEqual([]);
    expect(lost.deadlocks).toBe(0);

    const dispatcher = startDispatcher(app.ctx, { poll: false });
    try {
      const events = await eventIdsOf(app, client.id);
      expect(events).toHaveLength(900);
      await waitFor(async () => {
        await dispatcher.runOnce();
        for (const hook of hooks) expect(new Set(hook.receiver.received.map((d) => d.body.id)).size).toBe(events.length);
      }, 60_000);
      for (const hook of hooks) expectEachOnce(hook.receiver, events);
    } finally {
      await dispatcher.stop();
    }
  }, 120_000);

  it('deletes five subscriptions with deliveries in flight without a 5xx; the one left gets every event once', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const doomed: { id: string; receiver: Receiver }[] = [];
    for (let i = 0; i < 5; i++) {
      // Failing receivers: each outcome also counts a failure on the subscription's row, as an outage does.
      const receiver = await newReceiver();
      receiver.respond = 503;
      receiver.delayMs = 5;
      doomed.push({ id: await subscribe(app, token, receiver), receiver });
    }
    const survivor = await newReceiver();
    survivor.delayMs = 15;
    await subscribe(app, token, survivor);

    const dispatcher: Dispatcher = startDispatcher(app.ctx);
    try {
      await commitEvents(app, client.id, 1000, 'del');
      // Deliveries are on the wire and being settled for every subscription when the deletes arrive.
      await waitFor(() => {
        for (const hook of doomed) expect(hook.receiver.received.length).toBeGreaterThan(50);
      }, 30_000);
      const deleted = await Promise.all(
        doomed.map((hook) => app.request('DELETE', `/v1/webhooks/${hook.id}`, { token }).then((res) => res.status)),
      );
      expect(deleted).toEqual([204, 204, 204, 204, 204]);
      const events = await eventIdsOf(app, client.id);
      await waitFor(() => expect(new Set(survivor.received.map((d) => d.body.id)).size).toBe(events.length), 60_000);
      expectEachOnce(survivor, events);
      const { rows } = await app.db.query<{ n: number }>(
        'select count(*)::int as n from webhook_deliveries where webhook_id = any($1::text[])',
        [doomed.map((hook) => hook.id)],
      );
      expect(rows[0]?.n).toBe(0);
    } finally {
      await dispatcher.stop();
    }
  }, 120_000);

  it('deletes a subscription while the worker records one of its attempts, the delete waiting on that row', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const webhookId = await subscribe(app, token, await newReceiver());
    const otherId = await subscribe(app, token, await newReceiver());
    await commitEvents(app, client.id, 1, 'mid');
    await fanOutAll(app, { deadlocks: 0 });
    const now = app.clock.now();
    const jobs = await claimDeliveryJobs(app.db, {
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      leaseToken: 'lease-mid',
      limit: 2,
      skipWebhooks: [],
    });
    const mine = jobs.find((job) => job.webhook_id === webhookId);
    const other = jobs.find((job) => job.webhook_id === otherId);
    if (!mine || !other) throw new Error('both deliveries must be claimed');

    // Someone holds the other subscription's delivery (a partner's resend, say), so the worker's settling statement
    // stops half way: this subscription's row already updated, the other's not yet.
    let releaseHolder: () => void = () => {};
    const holderMayGo = new Promise<void>((resolve) => {
      releaseHolder = resolve;
    });
    let holding: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = app.db.transaction(async (tx) => {
      await tx.query('select id from webhook_deliveries where id = $1 for update', [other.id]);
      holding();
      await holderMayGo;
    });
    await held;
    const settlement = (job: typeof mine) => ({
      deliveryId: job.id,
      leaseToken: 'lease-mid',
      webhookId: job.webhook_id,
      attempt: {
        eventId: job.event_id,
        eventType: 'user.enrolled' as const,
        attempt: 1,
        status: 'failed' as const,
        statusCode: 503,
        responseTimeMs: 5,
        deliveredAt: now,
        error: 'http 503',
      },
      next: { state: 'pending' as const, nextAttemptAt: new Date(now.getTime() + 60_000) },
      final: false,
      failureCountSeen: 0,
    });
    const settling = app.db.transaction((tx) => settleAttempts(tx, [settlement(mine), settlement(other)]));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const deleting = app.request('DELETE', `/v1/webhooks/${webhookId}`, { token });
    await new Promise((resolve) => setTimeout(resolve, 300));
    releaseHolder();
    const [settled, deleted] = await Promise.allSettled([settling, deleting, holder]);
    expect(deleted.status === 'fulfilled' && deleted.value.status).toBe(204);
    // The worker's side may lose a deadlock (its settler retries the batch); the partner's answer may not.
    expect(['fulfilled', '40P01']).toContain(
      settled.status === 'fulfilled' ? 'fulfilled' : (settled.reason as { code?: string }).code,
    );
    const { rows } = await app.db.query<{ n: number }>('select count(*)::int as n from webhooks where id = $1', [webhookId]);
    expect(rows[0]?.n).toBe(0);
  });
});
