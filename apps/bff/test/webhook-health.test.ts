import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { HEALTH_RESOLUTION_MS } from '../src/modules/webhooks/queue-repo.ts';
import { enrollment, type TestApp, type TestClient } from './helpers/harness.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';
import { type Receiver, waitFor } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

/**
 * Issue 50, "endpoint health on the subscription": the latest delivery, success and failure with its reason,
 * consecutive failures, and when and why it stopped receiving, kept by the statement that settles attempts.
 */
const MINUTE = 60_000;
const SCHEDULE_MINUTES = [1, 5, 30, 120, 1440];

let world: WebhookWorld;
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
/** Per client: the status its receiver answers; and each enrolled user's client. */
const answers = new Map<string, number>();
const clientOfUser = new Map<string, string>();

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  world = await startWebhookWorld({ SMTP_URL: smtp.url });
  ({ app, receiver, dispatcher } = world);
  receiver.respond = (d) => answers.get(clientOfUser.get(String(d.body.data.userId)) ?? '') ?? 200;
});
afterAll(async () => {
  await world.close();
  await smtp.close();
});

const setup = async () => {
  const client = await app.createClient();
  const token = await app.token(client);
  const res = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled'], secret: 'whsec_health_0123456789abcdef' },
  });
  expect(res.status).toBe(201);
  const answer = (status: number) => answers.set(client.id, status);
  return { client, webhookId: res.body.data.webhookId as string, created: res.body.data, answer };
};

const enrol = async (client: TestClient) => {
  const res = await app.request('POST', '/v1/users/enroll', { token: await app.currentToken(client), body: enrollment() });
  expect(res.status).toBe(201);
  clientOfUser.set(res.body.data.userId, client.id);
};

const webhookOf = async (client: TestClient, webhookId: string) => {
  const res = await app.request('GET', `/v1/webhooks/${webhookId}`, { token: await app.currentToken(client) });
  expect(res.status).toBe(200);
  return res.body.data;
};

const iso = (at: Date) => at.toISOString();

describe('health', () => {
  it('starts empty, follows failures and a success, and says when and why the last retry turned it failed', async () => {
    const { client, webhookId, created, answer } = await setup();
    expect(created.retrySchedule).toBe('standard');
    expect(created.health).toEqual({
      lastDeliveryAt: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      lastFailureReason: null,
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      failureNoticeSentAt: null,
    });

    answer(500);
    await enrol(client);
    const firstFailure = app.clock.now();
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health).toMatchObject({
      lastDeliveryAt: iso(firstFailure),
      lastSuccessAt: null,
      lastFailureAt: iso(firstFailure),
      lastFailureReason: 'http 500',
      consecutiveFailures: 1,
      disabledAt: null,
    });
    answer(503);
    app.clock.advance(MINUTE);
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health).toMatchObject({ lastFailureReason: 'http 503', consecutiveFailures: 2 });

    answer(200);
    app.clock.advance(5 * MINUTE);
    const success = app.clock.now();
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health).toMatchObject({
      lastDeliveryAt: iso(success),
      lastSuccessAt: iso(success),
      lastFailureAt: iso(new Date(firstFailure.getTime() + MINUTE)),
      lastFailureReason: 'http 503',
      consecutiveFailures: 0,
      disabledAt: null,
    });

    // A receiver down through a whole schedule: the status turns failed and the health says after what.
    answer(500);
    await enrol(client);
    await dispatcher.runOnce();
    for (const minutes of SCHEDULE_MINUTES) {
      app.clock.advance(minutes * MINUTE);
      await dispatcher.runOnce();
    }
    const failedAt = app.clock.now();
    const logs = (await app.request('GET', `/v1/webhooks/${webhookId}/logs?limit=1`, { token: await app.currentToken(client) }))
      .body.data;
    const failed = await webhookOf(client, webhookId);
    expect(failed.status).toBe('failed');
    expect(failed.health).toMatchObject({
      lastDeliveryAt: iso(failedAt),
      lastSuccessAt: iso(success),
      lastFailureAt: iso(failedAt),
      lastFailureReason: 'http 500',
      consecutiveFailures: 6,
      disabledAt: iso(failedAt),
      disabledReason: `failed after 6 attempts of delivery ${logs[0].deliveryId}: http 500`,
    });

    // The e-mail goes out on the worker's next pass; the health says when, and the e-mail says the same reason.
    const noticeAt = app.clock.now();
    await dispatcher.runOnce();
    const mail = await waitFor(() => {
      const found = smtp.mails.find((m) => m.raw.includes(webhookId));
      if (!found) throw new Error('no notice yet');
      return found.raw.replace(/=\r?\n/g, '');
    });
    expect(mail).toContain(`after 6 attempts of delivery ${logs[0].deliveryId}`);
    expect((await webhookOf(client, webhookId)).health.failureNoticeSentAt).toBe(iso(noticeAt));

    // Re-activation clears why it stopped, and the count; the e-mail's time stays.
    answer(200);
    const token = await app.currentToken(client);
    const reactivated = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'active' } });
    expect(reactivated.body.data.health).toMatchObject({
      consecutiveFailures: 0,
      disabledAt: null,
      disabledReason: null,
      failureNoticeSentAt: iso(noticeAt),
      lastFailureReason: 'http 500',
    });
  });

  it('says "disabled by you" from a PATCH, and keeps the first moment through a second one', async () => {
    const { client, webhookId } = await setup();
    const token = await app.currentToken(client);
    const disabledAt = app.clock.now();
    const disabled = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'disabled' } });
    expect(disabled.body.data.health).toMatchObject({ disabledAt: iso(disabledAt), disabledReason: 'disabled by you' });
    app.clock.advance(MINUTE);
    const again = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'disabled' } });
    expect(again.body.data.health.disabledAt).toBe(iso(disabledAt));
    const listed = await app.request('GET', '/v1/webhooks?status=disabled', { token });
    expect(listed.body.data[0].health.disabledReason).toBe('disabled by you');
    const active = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { status: 'active' } });
    expect(active.body.data.health).toMatchObject({ disabledAt: null, disabledReason: null });
  });

  it('a steady stream of successes writes the subscription’s row at most once per resolution', async () => {
    const { client, webhookId } = await setup();
    await enrol(client);
    const first = app.clock.now();
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health.lastSuccessAt).toBe(iso(first));
    // Within the resolution of the last recorded success: the row is left alone.
    app.clock.advance(HEALTH_RESOLUTION_MS / 2);
    await enrol(client);
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health.lastSuccessAt).toBe(iso(first));
    // Past it: recorded.
    app.clock.advance(HEALTH_RESOLUTION_MS);
    const third = app.clock.now();
    await enrol(client);
    await dispatcher.runOnce();
    expect((await webhookOf(client, webhookId)).health).toMatchObject({
      lastDeliveryAt: iso(third),
      lastSuccessAt: iso(third),
      consecutiveFailures: 0,
    });
    // A test delivery is not a scheduled one: it leaves the health alone.
    app.clock.advance(10 * MINUTE);
    const token = await app.currentToken(client);
    await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'score.changed' } });
    expect((await webhookOf(client, webhookId)).health.lastDeliveryAt).toBe(iso(third));
  });
});
