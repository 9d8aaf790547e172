import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVENT_ENVELOPE_SCHEMAS, EVENT_TYPES } from '@credit/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { createFailureNotifier } from '../src/modules/webhooks/notify-failure.ts';
import { claimDueDeliveries, fanOutBatch, settleDelivery } from '../src/modules/webhooks/queue-repo.ts';
import { signatureHeader, signatureOf } from '../src/modules/webhooks/sign.ts';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { type ReceivedDelivery, type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

const SECRET = 'whsec_delivery_0123456789abcdef';
const MINUTE = 60_000;
const SCHEDULE = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 24 * 60 * MINUTE];

let app: TestApp;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let dispatcher: Dispatcher;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpReceiver();
  app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile, SMTP_URL: smtp.url, LOG_LEVEL: 'debug' } });
  // Driven by hand (runOnce) so each step of the schedule is observed exactly.
  dispatcher = startDispatcher(app.ctx, { poll: false });
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await receiver.close();
  await smtp.close();
});

/** A client with its own receiver path, so each test sees only its deliveries. */
const setup = async (events = ['user.enrolled'], secret = SECRET) => {
  const client = await app.createClient();
  const token = await app.token(client);
  const path = `/c/${client.id}`;
  const res = await app.request('POST', '/v1/webhooks', { token, body: { url: `${receiver.url}${path}`, events, secret } });
  expect(res.status).toBe(201);
  const mine = () => receiver.received.filter((d) => ownedBy(d, client.id));
  return { client, token, webhookId: res.body.data.webhookId as string, mine };
};

const byClient = new Map<string, string>();
const ownedBy = (d: ReceivedDelivery, clientId: string) => byClient.get(d.body.id) === clientId;

const enrol = async (token: string, clientId: string) => {
  const res = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
  expect(res.status).toBe(201);
  const events = await app.db.query<{ id: string }>("select id from outbox_events where data->>'userId' = $1", [
    res.body.data.userId,
  ]);
  for (const e of events.rows) byClient.set(e.id, clientId);
  return { userId: res.body.data.userId as string, eventId: events.rows[0]?.id as string };
};

const logsOf = async (token: string, webhookId: string, query = '') =>
  (await app.request('GET', `/v1/webhooks/${webhookId}/logs${query}`, { token })).body;

describe('delivery', () => {
  it('delivers user.enrolled signed so that Stripe’s verifier accepts it, byte for byte', async () => {
    const { client, token, webhookId, mine } = await setup();
    const { userId, eventId } = await enrol(token, client.id);
    await dispatcher.runOnce();
    const [delivery] = mine();
    expect(mine()).toHaveLength(1);
    if (!delivery) throw new Error('no delivery');
    const header = delivery.headers['x-service-signature'] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-service-event-id']).toBe(eventId);
    expect(delivery.headers['user-agent']).toMatch(/^CreditPlatform-Webhooks\//);
    expect(delivery.body).toMatchObject({ id: eventId, type: 'user.enrolled', data: { userId, status: 'pending_verification' } });
    expect(EVENT_ENVELOPE_SCHEMAS['user.enrolled'].safeParse(delivery.body).success).toBe(true);

    const event = Stripe.webhooks.constructEvent(delivery.raw, header, SECRET, 300);
    expect(event.id).toBe(eventId);
    expect(() => Stripe.webhooks.constructEvent(delivery.raw, header, 'whsec_some_other_secret_000', 300)).toThrow();
    expect(() => Stripe.webhooks.constructEvent(`${delivery.raw} `, header, SECRET, 300)).toThrow();
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    expect(Stripe.webhooks.generateTestHeaderString({ payload: delivery.raw, secret: SECRET, timestamp: t })).toBe(header);
    expect(signatureHeader([SECRET], t, delivery.raw)).toBe(header);

    const logs = await logsOf(token, webhookId);
    expect(logs.data).toEqual([
      expect.objectContaining({ eventId, eventType: 'user.enrolled', status: 'success', statusCode: 200, attempt: 1 }),
    ]);
    expect(logs.data[0].deliveryId).toMatch(/^del_/);
    // The event is delivered once: another pass finds nothing due.
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
    expect(app.logs.join('')).not.toContain(SECRET);
  });

  it('retries on the schedule, logs every attempt, then fails the subscription and sends one e-mail', async () => {
    const { client, token: first, webhookId, mine } = await setup();
    receiver.respond = (d) => (ownedBy(d, client.id) ? 500 : 200);
    const { eventId } = await enrol(first, client.id);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
    for (const [index, delay] of SCHEDULE.entries()) {
      app.clock.advance(delay - 1000);
      await dispatcher.runOnce();
      expect(mine(), `retry ${index + 1} not before its time`).toHaveLength(index + 1);
      app.clock.advance(1000);
      await dispatcher.runOnce();
      expect(mine(), `retry ${index + 1}`).toHaveLength(index + 2);
    }
    expect(new Set(mine().map((d) => d.body.id))).toEqual(new Set([eventId]));
    await dispatcher.runOnce();
    // Access tokens last an hour and the clock moved a day.
    let token = await app.token(client);
    const hook = await app.request('GET', `/v1/webhooks/${webhookId}`, { token });
    expect(hook.body.data?.status, JSON.stringify(hook.body)).toBe('failed');

    const logs = await logsOf(token, webhookId);
    expect(logs.data.map((e: { attempt: number }) => e.attempt)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(logs.data.every((e: { status: string; statusCode: number }) => e.status === 'failed' && e.statusCode === 500)).toBe(
      true,
    );
    expect(new Set(logs.data.map((e: { error?: string }) => e.error))).toEqual(new Set(['http 500']));
    expect(new Set(logs.data.map((e: { deliveryId: string }) => e.deliveryId)).size).toBe(1);
    const page1 = await logsOf(token, webhookId, '?limit=4');
    expect(page1.data.map((e: { attempt: number }) => e.attempt)).toEqual([6, 5, 4, 3]);
    expect(page1.pagination).toMatchObject({ hasMore: true, total: 6 });
    const page2 = await logsOf(token, webhookId, `?limit=4&cursor=${page1.pagination.nextCursor}`);
    expect(page2.data.map((e: { attempt: number }) => e.attempt)).toEqual([2, 1]);
    expect(page2.pagination.hasMore).toBe(false);
    expect((await logsOf(token, webhookId, '?status=success')).pagination.total).toBe(0);
    expect((await logsOf(token, webhookId, '?status=failed')).pagination.total).toBe(6);

    const mails = () => smtp.mails.filter((m) => m.raw.includes(webhookId));
    expect(mails()).toHaveLength(1);
    expect(mails()[0]?.to).toEqual(['ops@bank.test']);
    // It says why the last attempt failed, as the logs do.
    // (quoted-printable: soft line breaks are `=` at a line's end)
    expect(mails()[0]?.raw.replace(/=\r?\n/g, '')).toContain('The last attempt failed with: http 500.');
    // Nothing more is attempted or mailed, however long we wait.
    app.clock.advance(48 * 60 * MINUTE);
    await dispatcher.runOnce();
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(6);
    expect(mails()).toHaveLength(1);

    // Re-activation resets the failure count and deliveries flow again.
    token = await app.token(client);
    receiver.respond = 200;
    const failures = await app.db.query<{ failure_count: number }>('select failure_count from webhooks where id = $1', [
      webhookId,
    ]);
    expect(failures.rows[0]?.failure_count).toBe(6);
    const reactivated = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'active' } });
    expect(reactivated.body.data.status).toBe('active');
    const reset = await app.db.query<{ failure_count: number }>('select failure_count from webhooks where id = $1', [webhookId]);
    expect(reset.rows[0]?.failure_count).toBe(0);
    const second = await enrol(token, client.id);
    await dispatcher.runOnce();
    expect(mine().at(-1)?.body.id).toBe(second.eventId);
    expect((await logsOf(token, webhookId)).data[0]).toMatchObject({ eventId: second.eventId, status: 'success', attempt: 1 });
  });

  it('signs with the new and the old secret for 24 h after a rotation, then with the new one only', async () => {
    const { client, token, webhookId, mine } = await setup(['user.enrolled'], 'old-secret-0123456789');
    const patched = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { secret: 'new-secret-9876543210' } });
    expect(patched.status).toBe(200);
    await enrol(token, client.id);
    await dispatcher.runOnce();
    const during = mine().at(-1) as ReceivedDelivery;
    const header = during.headers['x-service-signature'] as string;
    const t = Number(/t=(\d+)/.exec(header)?.[1]);
    expect(header).toBe(
      `t=${t},v1=${signatureOf('new-secret-9876543210', t, during.raw)},v1=${signatureOf('old-secret-0123456789', t, during.raw)}`,
    );
    expect(Stripe.webhooks.constructEvent(during.raw, header, 'old-secret-0123456789', 300).id).toBe(during.body.id);
    expect(Stripe.webhooks.constructEvent(during.raw, header, 'new-secret-9876543210', 300).id).toBe(during.body.id);

    app.clock.advance(24 * 60 * MINUTE + 1000);
    await enrol(await app.token(client), client.id);
    await dispatcher.runOnce();
    const after = mine().at(-1) as ReceivedDelivery;
    const t2 = Number(/t=(\d+)/.exec(after.headers['x-service-signature'] as string)?.[1]);
    expect(after.headers['x-service-signature']).toBe(`t=${t2},v1=${signatureOf('new-secret-9876543210', t2, after.raw)}`);
  });

  it('sends only subscribed types, and nothing to disabled or deleted subscriptions', async () => {
    const { client, token, webhookId, mine } = await setup(['user.deleted']);
    const { userId } = await enrol(token, client.id);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(0);
    await app.request('DELETE', `/v1/users/${userId}`, { token });
    const deletedEvent = await app.db.query<{ id: string }>(
      "select id from outbox_events where type = 'user.deleted' and data->>'userId' = $1",
      [userId],
    );
    byClient.set(deletedEvent.rows[0]?.id as string, client.id);
    await dispatcher.runOnce();
    expect(mine().map((d) => d.body.type)).toEqual(['user.deleted']);
    expect(EVENT_ENVELOPE_SCHEMAS['user.deleted'].safeParse(mine()[0]?.body).success).toBe(true);

    await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { events: ['user.enrolled'], status: 'disabled' } });
    await enrol(token, client.id);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
    await app.request('DELETE', `/v1/webhooks/${webhookId}`, { token });
    await enrol(token, client.id);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
  });

  it('POST /test makes one real signed attempt of any type and answers its log entry; failures are not retried', async () => {
    const { token, webhookId } = await setup();
    const before = receiver.received.length;
    for (const eventType of EVENT_TYPES) {
      const res = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ eventType, status: 'success', statusCode: 200, attempt: 1 });
      const got = receiver.received.at(-1) as ReceivedDelivery;
      expect(got.body.type).toBe(eventType);
      expect(EVENT_ENVELOPE_SCHEMAS[eventType].safeParse(got.body).success, eventType).toBe(true);
      expect(Stripe.webhooks.constructEvent(got.raw, got.headers['x-service-signature'] as string, SECRET, 300).id).toBe(
        res.body.data.eventId,
      );
    }
    expect(receiver.received.length - before).toBe(EVENT_TYPES.length);

    receiver.respond = 503;
    const failed = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'score.changed' } });
    receiver.respond = 200;
    expect(failed.body.data).toMatchObject({ status: 'failed', statusCode: 503 });
    const count = receiver.received.length;
    app.clock.advance(10 * MINUTE);
    await dispatcher.runOnce();
    expect(receiver.received.length).toBe(count);
    expect((await app.request('GET', `/v1/webhooks/${webhookId}`, { token })).body.data.status).toBe('active');
    const logs = await logsOf(token, webhookId);
    expect(logs.pagination.total).toBe(EVENT_TYPES.length + 1);
    expect(logs.data[0]).toMatchObject({ status: 'failed', statusCode: 503 });

    // A host name (not an IP literal) goes through the connect-time address check; sandbox allows loopback.
    await app.request('PATCH', `/v1/webhooks/${webhookId}`, {
      token,
      body: { url: receiver.url.replace('127.0.0.1', 'localhost') },
    });
    const byName = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'user.enrolled' } });
    expect(byName.body.data).toMatchObject({ status: 'success', statusCode: 200 });

    const closed = await setup();
    await app.request('PATCH', `/v1/webhooks/${closed.webhookId}`, {
      token: closed.token,
      body: { url: 'https://127.0.0.1:1/none' },
    });
    const refused = await app.request('POST', `/v1/webhooks/${closed.webhookId}/test`, {
      token: closed.token,
      body: { eventType: 'user.enrolled' },
    });
    expect(refused.body.data).toMatchObject({ status: 'failed', statusCode: 0 });
  });
});

describe('failure notice without SMTP', () => {
  it('writes the e-mail to DATA_DIR/webhook-notices and logs where', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credit-notices-'));
    const client = await app.createClient({ contactEmail: 'alerts@bank.test' });
    const ctx = { ...app.ctx, config: { ...app.ctx.config, SMTP_URL: undefined, DATA_DIR: dir } };
    const notifier = createFailureNotifier(ctx);
    await notifier.notify({ id: 'wh_NoSmtp000001', client_id: client.id, url: 'https://hooks.bank.test/x', last_error: null });
    notifier.close();
    const files = readdirSync(path.join(dir, 'webhook-notices'));
    expect(files).toHaveLength(1);
    const mail = readFileSync(path.join(dir, 'webhook-notices', files[0] as string), 'utf8');
    expect(mail).toMatch(/To: alerts@bank\.test/);
    expect(mail).toContain('wh_NoSmtp000001');
    expect(app.logs.join('')).toContain('webhook-notices');
  });
});

describe('timeouts', () => {
  it('counts no answer within the timeout as a failure with statusCode 0', async () => {
    const slow = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile, WEBHOOK_TIMEOUT_MS: '200' } });
    try {
      const t = await slow.token(await slow.createClient());
      const created = await slow.request('POST', '/v1/webhooks', {
        token: t,
        body: { url: `${receiver.url}/slow`, events: ['user.enrolled'], secret: SECRET },
      });
      receiver.delayMs = 1000;
      const res = await slow.request('POST', `/v1/webhooks/${created.body.data.webhookId}/test`, {
        token: t,
        body: { eventType: 'user.enrolled' },
      });
      expect(res.body.data).toMatchObject({ status: 'failed', statusCode: 0 });
      expect(res.body.data.responseTime).toBeGreaterThanOrEqual(150);
    } finally {
      receiver.delayMs = 0;
      await slow.close();
    }
  });
});

describe('leases', () => {
  it('leaves a claimed attempt to its worker until the lease runs out, then another worker makes it', async () => {
    const { client, token, mine } = await setup();
    await enrol(token, client.id);
    // A worker that fans out, claims and then dies before answering: its lease is all that is left.
    await app.ctx.db.transaction((tx) => fanOutBatch(tx, app.ctx.ids, app.clock.now(), 1000));
    const now = app.clock.now();
    const claimed = await claimDueDeliveries(app.ctx.db, now, new Date(now.getTime() + 40_000), 'lease_dead', 1000);
    expect(claimed.length).toBeGreaterThan(0);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(0);
    app.clock.advance(40_001);
    await dispatcher.runOnce();
    expect(mine()).toHaveLength(1);
    // The dead worker's late answer cannot overwrite the outcome.
    expect(
      await settleDelivery(app.ctx.db, claimed[0]?.id as string, 'lease_dead', { state: 'failed', nextAttemptAt: null }),
    ).toBe(false);
  });
});

describe('the polling worker', () => {
  it('delivers a new event without being asked, woken by NOTIFY long before its next poll', async () => {
    // A ten-minute poll: only the NOTIFY raised by the enrolment's commit can wake this worker in time.
    const polling = startDispatcher({ ...app.ctx, config: { ...app.ctx.config, WEBHOOK_POLL_INTERVAL_MS: 600_000 } });
    await polling.listening;
    try {
      const { client, token, mine } = await setup();
      const { eventId } = await enrol(token, client.id);
      const { waitFor } = await import('./helpers/webhook-receiver.ts');
      await waitFor(() => expect(mine().map((d) => d.body.id)).toEqual([eventId]));
    } finally {
      await polling.stop();
    }
  });
});
