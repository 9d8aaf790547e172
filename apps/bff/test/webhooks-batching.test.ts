import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import type { Db, Queryable } from '../src/db/db.ts';
import { startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { type AttemptSettlement, claimDeliveryJobs, fanOutBatch, settleAttempts } from '../src/modules/webhooks/queue-repo.ts';
import { recordEvent } from '../src/outbox/outbox.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

const SECRET = 'whsec_batching_0123456789abcdef';

/** An HTTPS receiver that counts TLS connections and the most requests it held at once. */
const countingReceiver = async (delayMs: (path: string) => number) => {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const caFile = path.join(tmpdir(), `webhook-batching-ca-${process.pid}-${Math.random().toString(36).slice(2)}.pem`);
  writeFileSync(caFile, pems.cert);
  const stats = { connections: 0, inFlight: 0, maxInFlight: 0, received: [] as { path: string; id: string; at: number }[] };
  const server = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
      stats.received.push({ path: req.url ?? '', id: body.id, at: Date.now() });
      setTimeout(
        () => {
          stats.inFlight--;
          res.writeHead(200).end('ok');
        },
        delayMs(req.url ?? ''),
      );
    });
  });
  server.on('secureConnection', () => {
    stats.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    stats,
    caFile,
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const subscribe = async (url: string) => {
  const client = await app.createClient();
  const token = await app.token(client);
  const res = await app.request('POST', '/v1/webhooks', { token, body: { url, events: ['user.enrolled'], secret: SECRET } });
  expect(res.status).toBe(201);
  return { clientId: client.id, webhookId: res.body.data.webhookId as string };
};

const commitEvents = async (clientId: string, count: number) => {
  for (let i = 0; i < count; i++) {
    await app.db.transaction((tx) =>
      recordEvent(tx, app.ctx.ids, {
        clientId,
        type: 'user.enrolled',
        data: {
          userId: `usr_batch${String(i).padStart(8, '0')}`,
          externalUserId: `b-${i}`,
          email: 'b@example.test',
          status: 'pending_verification',
        },
        createdAt: app.clock.now(),
      }),
    );
  }
};

/** A context whose database counts every statement sent, inside transactions or not. */
const counting = (ctx: AppContext) => {
  const count = { statements: 0 };
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      count.statements++;
      return q.query(sql, params);
    },
    exec: (sql) => q.exec(sql),
  });
  const db: Db = { ...ctx.db, ...wrap(ctx.db), transaction: (work) => ctx.db.transaction((tx) => work(wrap(tx))) };
  return { ctx: { ...ctx, db }, count };
};

const withConfig = (ctx: AppContext, config: Partial<AppContext['config']>): AppContext => ({
  ...ctx,
  config: { ...ctx.config, ...config },
});

describe('batched delivery', () => {
  it('claims, sends and records many deliveries with far fewer statements than deliveries', async () => {
    // Answers leave on 50 ms boundaries, so a wave of answers ends together even on a loaded machine.
    const receiver = await countingReceiver(() => 100 - (Date.now() % 50));
    try {
      const { clientId } = await subscribe(`${receiver.url}/batch`);
      await commitEvents(clientId, 60);
      // A client share that takes all 60 in one claim: runOnce claims once (fair shares: webhooks-fair-share.test.ts).
      const { ctx, count } = counting(
        withConfig(app.ctx, {
          WEBHOOK_CONCURRENCY: 64,
          WEBHOOK_CONNECTIONS_PER_ORIGIN: 8,
          WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: 32,
          WEBHOOK_CA_FILE: receiver.caFile,
        }),
      );
      const dispatcher = startDispatcher(ctx, { poll: false });
      await dispatcher.runOnce();
      await dispatcher.stop();
      expect(new Set(receiver.stats.received.map((r) => r.id)).size).toBe(60);
      const attempts = await app.db.query<{ n: number }>(
        "select count(*)::int as n from webhook_attempts a join webhooks w on w.id = a.webhook_id where w.client_id = $1 and a.status = 'success'",
        [clientId],
      );
      expect(attempts.rows[0]?.n).toBe(60);
      // One claim carries events and subscriptions; outcomes that end together (here about eight waves of
      // eight) share one statement; about 20–24 on a quiet machine. How many end together depends on timing, so
      // the bound is "fewer statements than deliveries": one transaction per delivery (the old way) needs ≥ 3 × 60.
      expect(count.statements).toBeLessThan(60);
    } finally {
      await receiver.close();
    }
  });

  it('reuses keep-alive connections and keeps at most WEBHOOK_CONNECTIONS_PER_ORIGIN requests at one receiver', async () => {
    const receiver = await countingReceiver(() => 20);
    try {
      const { clientId } = await subscribe(`${receiver.url}/pool`);
      await commitEvents(clientId, 40);
      const dispatcher = startDispatcher(
        withConfig(app.ctx, {
          WEBHOOK_CONCURRENCY: 64,
          WEBHOOK_CONNECTIONS_PER_ORIGIN: 4,
          WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: 32,
          WEBHOOK_CA_FILE: receiver.caFile,
        }),
        {
          poll: false,
        },
      );
      await dispatcher.runOnce();
      await dispatcher.stop();
      expect(new Set(receiver.stats.received.map((r) => r.id)).size).toBe(40);
      expect(receiver.stats.maxInFlight).toBeLessThanOrEqual(4);
      expect(receiver.stats.connections).toBeLessThanOrEqual(4);
    } finally {
      await receiver.close();
    }
  });

  it('does not let a slow receiver hold back another receiver’s deliveries', async () => {
    const receiver = await countingReceiver((path) => (path.startsWith('/slow') ? 1000 : 0));
    try {
      const slow = await subscribe(`${receiver.url}/slow`);
      const fast = await subscribe(`${receiver.url.replace('127.0.0.1', 'localhost')}/fast`);
      await commitEvents(slow.clientId, 6);
      await commitEvents(fast.clientId, 2);
      // Four in flight in all, two per receiver: the slow one's backlog must leave room for the other. Three per client,
      // so each client's share holds all its deliveries and the receiver's limit is what binds.
      const dispatcher = startDispatcher(
        withConfig(app.ctx, {
          WEBHOOK_CONCURRENCY: 4,
          WEBHOOK_CONNECTIONS_PER_ORIGIN: 2,
          WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: 3,
          WEBHOOK_CA_FILE: receiver.caFile,
        }),
        {
          poll: false,
        },
      );
      await dispatcher.runOnce();
      await dispatcher.stop();
      const slowAt = receiver.stats.received.filter((r) => r.path.startsWith('/slow')).map((r) => r.at);
      const fastAt = receiver.stats.received.filter((r) => r.path.startsWith('/fast')).map((r) => r.at);
      expect(slowAt).toHaveLength(6);
      expect(fastAt).toHaveLength(2);
      // The slow receiver takes three rounds of one second; the fast one is served in the first.
      expect(Math.max(...fastAt)).toBeLessThan(Math.max(...slowAt) - 1500);
    } finally {
      await receiver.close();
    }
  });

  it('gives back a delivery that waited for a connection past its lease budget instead of sending it', async () => {
    let advanced = false;
    const receiver = await countingReceiver(() => {
      // While the first attempt is on the wire, time passes beyond what the queued one's lease can cover.
      if (!advanced) app.clock.advance(6_000);
      advanced = true;
      return 100;
    });
    try {
      const { clientId, webhookId } = await subscribe(`${receiver.url}/budget`);
      await commitEvents(clientId, 2);
      const config = {
        WEBHOOK_CONCURRENCY: 4,
        WEBHOOK_CONNECTIONS_PER_ORIGIN: 1,
        WEBHOOK_TIMEOUT_MS: 1_000,
        WEBHOOK_CA_FILE: receiver.caFile,
      };
      const dispatcher = startDispatcher(withConfig(app.ctx, config), { poll: false });
      await dispatcher.runOnce();
      expect(receiver.stats.received).toHaveLength(1);
      const rows = await app.db.query<{ state: string; attempts: number; lease_token: string | null }>(
        'select state, attempts, lease_token from webhook_deliveries where webhook_id = $1 order by attempts desc',
        [webhookId],
      );
      expect(rows.rows).toEqual([
        { state: 'succeeded', attempts: 1, lease_token: null },
        { state: 'pending', attempts: 0, lease_token: null },
      ]);
      // Given back, not lost: the next pass sends it.
      await dispatcher.runOnce();
      await dispatcher.stop();
      expect(receiver.stats.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});

describe('settling a batch', () => {
  const leaseAll = async (webhookId: string, clientId: string, events: number) => {
    await commitEvents(clientId, events);
    await app.db.transaction((tx) => fanOutBatch(tx, app.ctx.ids, app.clock.now(), 1000));
    const now = app.clock.now();
    const jobs = await claimDeliveryJobs(app.db, {
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      leaseToken: 'lease_batch',
      limit: 1000,
      skipWebhooks: [],
    });
    return jobs.filter((j) => j.webhook_id === webhookId);
  };
  const settlement = (job: { id: string; webhook_id: string; event_id: string }, ok: boolean, n: number): AttemptSettlement => ({
    deliveryId: job.id,
    leaseToken: 'lease_batch',
    webhookId: job.webhook_id,
    attempt: {
      eventId: job.event_id,
      eventType: 'user.enrolled',
      attempt: 1,
      status: ok ? 'success' : 'failed',
      statusCode: ok ? 200 : 500,
      responseTimeMs: n,
      deliveredAt: app.clock.now(),
    },
    next: ok ? { state: 'succeeded', nextAttemptAt: null } : { state: 'pending', nextAttemptAt: app.clock.now() },
    final: false,
    failureCountSeen: 0,
  });

  it('answers events and subscriptions with the claim, and leaves out the subscriptions it is told to skip', async () => {
    const a = await subscribe('https://127.0.0.1:9/a');
    const b = await subscribe('https://127.0.0.1:9/b');
    await commitEvents(a.clientId, 3);
    await commitEvents(b.clientId, 3);
    await app.db.transaction((tx) => fanOutBatch(tx, app.ctx.ids, app.clock.now(), 1000));
    const now = app.clock.now();
    const jobs = await claimDeliveryJobs(app.db, {
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      leaseToken: 'lease_skip',
      limit: 1000,
      skipWebhooks: [b.webhookId],
    });
    const mine = jobs.filter((j) => j.webhook_id === a.webhookId || j.webhook_id === b.webhookId);
    expect(mine.map((j) => j.webhook_id)).toEqual([a.webhookId, a.webhookId, a.webhookId]);
    expect(mine[0]?.event).toMatchObject({
      id: mine[0]?.event_id,
      type: 'user.enrolled',
      data: { status: 'pending_verification' },
    });
    expect(mine[0]?.webhook).toMatchObject({ id: a.webhookId, url: 'https://127.0.0.1:9/a', status: 'active' });
    // Settle them so later claims in this file do not see them.
    await app.db.transaction((tx) =>
      settleAttempts(
        tx,
        mine.map((j, n) => ({ ...settlement(j, true, n), leaseToken: 'lease_skip' })),
      ),
    );
  });

  it('logs every attempt and counts failures in settlement order, in one statement when all succeed', async () => {
    const { clientId, webhookId } = await subscribe('https://127.0.0.1:9/settle');
    const jobs = await leaseAll(webhookId, clientId, 5);
    expect(jobs).toHaveLength(5);
    const [j0, j1, j2, j3, j4] = jobs as [
      (typeof jobs)[0],
      (typeof jobs)[0],
      (typeof jobs)[0],
      (typeof jobs)[0],
      (typeof jobs)[0],
    ];
    // A failure, a success (resets the count), two failures: the count ends at 2.
    const { settled } = await app.db.transaction((tx) =>
      settleAttempts(tx, [settlement(j0, false, 0), settlement(j1, true, 1), settlement(j2, false, 2), settlement(j3, false, 3)]),
    );
    expect(settled.size).toBe(4);
    const hook = await app.db.query<{ failure_count: number }>('select failure_count from webhooks where id = $1', [webhookId]);
    expect(hook.rows[0]?.failure_count).toBe(2);
    const logged = await app.db.query<{ status: string; response_time_ms: number }>(
      'select status, response_time_ms from webhook_attempts where webhook_id = $1 order by seq',
      [webhookId],
    );
    expect(logged.rows).toEqual([
      { status: 'failed', response_time_ms: 0 },
      { status: 'success', response_time_ms: 1 },
      { status: 'failed', response_time_ms: 2 },
      { status: 'failed', response_time_ms: 3 },
    ]);

    // A lease another worker took over is not settled by this one, and its attempt is not logged.
    await app.db.query("update webhook_deliveries set lease_token = 'lease_other' where id = $1", [j4.id]);
    const statements = { n: 0 };
    const lost = await app.db.transaction((tx) =>
      settleAttempts(
        {
          query: (sql, params) => {
            statements.n++;
            return tx.query(sql, params);
          },
          exec: tx.exec,
        },
        [settlement(j4, true, 4)],
      ),
    );
    expect(lost.settled.size).toBe(0);
    expect(statements.n).toBe(1);
    const after = await app.db.query<{ n: number }>('select count(*)::int as n from webhook_attempts where webhook_id = $1', [
      webhookId,
    ]);
    expect(after.rows[0]?.n).toBe(4);
  });
});
