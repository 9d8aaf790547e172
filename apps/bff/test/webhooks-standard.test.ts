import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrollment, type TestApp } from './helpers/harness.ts';
import type { ReceivedDelivery, Receiver } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

let world: WebhookWorld;
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  // The library checks the timestamp against the wall clock: the test clock starts at real time and is not moved here.
  world = await startWebhookWorld();
  ({ app, receiver, dispatcher } = world);
});
afterAll(() => world.close());

const headersOf = (d: ReceivedDelivery) =>
  Object.fromEntries(Object.entries(d.headers).map(([name, value]) => [name, String(value)])) as Record<string, string>;

const deliverOne = async (secret: string) => {
  const client = await app.createClient();
  const token = await app.token(client);
  const hook = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled'], secret },
  });
  expect(hook.status).toBe(201);
  const enrolled = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
  await dispatcher.runOnce();
  const delivery = receiver.received.find((d) => d.body.data.userId === enrolled.body.data.userId);
  if (!delivery) throw new Error('not delivered');
  return { delivery, token, webhookId: hook.body.data.webhookId as string };
};

describe('Standard Webhooks headers', () => {
  it('verify with the standardwebhooks library, keyed with the secret’s UTF-8 bytes (format raw)', async () => {
    // A partner-chosen secret that looks like a Standard Webhooks one but is used as given, not base64-decoded.
    const secret = 'whsec_our-partner-chosen-secret';
    const { delivery } = await deliverOne(secret);
    const headers = headersOf(delivery);
    expect(headers['webhook-id']).toBe(delivery.body.id);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    // The same moment in both header sets.
    expect(headers['x-service-signature']).toContain(`t=${headers['webhook-timestamp']},`);

    const bytes = new TextEncoder().encode(secret);
    expect(new Webhook(bytes, { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);
    // An ASCII secret may also be passed as a string with format raw.
    expect(new Webhook(secret, { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);
    // Without format raw the library base64-decodes a whsec_ secret: not our key, so it throws (here: not base64).
    expect(() => new Webhook(secret).verify(delivery.raw, headers)).toThrow();
    expect(() => new Webhook(bytes, { format: 'raw' }).verify(`${delivery.raw} `, headers)).toThrow();
    // Stripe's scheme still verifies the same delivery.
    expect(Stripe.webhooks.constructEvent(delivery.raw, headers['x-service-signature'] as string, secret, 300).id).toBe(
      delivery.body.id,
    );
  });

  it('verify a non-ASCII secret when given as its UTF-8 bytes, and both secrets during a rotation', async () => {
    const secret = 'clé-secrète-de-la-banque-ü';
    const { delivery, token, webhookId } = await deliverOne(secret);
    const headers = headersOf(delivery);
    expect(new Webhook(new TextEncoder().encode(secret), { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);

    await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { secret: 'the-new-secret-0123456789' } });
    const test = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'score.changed' } });
    expect(test.body.data.status).toBe('success');
    const rotated = receiver.received.find((d) => d.body.id === test.body.data.eventId) as ReceivedDelivery;
    const rotatedHeaders = headersOf(rotated);
    expect(rotatedHeaders['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const key of [secret, 'the-new-secret-0123456789']) {
      expect(new Webhook(new TextEncoder().encode(key), { format: 'raw' }).verify(rotated.raw, rotatedHeaders)).toEqual(
        rotated.body,
      );
    }
  });
});
