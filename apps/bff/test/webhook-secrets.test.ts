import { createHmac } from 'node:crypto';
import { constructEvent, signWebhookPayload } from '@credit/sdk/webhooks';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { standardSecretKey, standardSignatureHeader } from '../src/modules/webhooks/sign.ts';
import { enrollment, type TestApp, type TestClient } from './helpers/harness.ts';
import type { ReceivedDelivery, Receiver } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

/**
 * Issue 50, "secrets the standard libraries take": a subscription made without a `secret` gets a generated Standard
 * Webhooks secret, answered once, that `new Webhook(secret)` verifies with its defaults; a rotation to a generated
 * secret keeps the old one signing beside it for 24 h.
 */
let world: WebhookWorld;
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;

const HOUR = 60 * 60_000;
const GENERATED = /^whsec_[A-Za-z0-9+/]{43}=$/;

beforeAll(async () => {
  // The library checks each timestamp against the wall clock: the test clock starts at real time.
  world = await startWebhookWorld();
  ({ app, receiver, dispatcher } = world);
});
afterAll(() => world.close());
afterEach(() => vi.useRealTimers());

const headersOf = (d: ReceivedDelivery) =>
  Object.fromEntries(Object.entries(d.headers).map(([name, value]) => [name, String(value)])) as Record<string, string>;

const subscribe = async (body: Record<string, unknown> = {}) => {
  const client = await app.createClient();
  const token = await app.token(client);
  const res = await app.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled'], ...body },
  });
  expect(res.status).toBe(201);
  return { client, token, webhookId: res.body.data.webhookId as string, created: res.body.data };
};

/** One event delivered by the dispatcher, as the receiver got it. */
const deliverOne = async (client: TestClient) => {
  const token = await app.currentToken(client);
  const enrolled = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
  expect(enrolled.status).toBe(201);
  await dispatcher.runOnce();
  const delivery = receiver.received.find((d) => d.body.data.userId === enrolled.body.data.userId);
  if (!delivery) throw new Error('not delivered');
  return { delivery, headers: headersOf(delivery) };
};

/** A test delivery made now, as the receiver got it. */
const testDelivery = async (token: string, webhookId: string) => {
  const test = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'score.changed' } });
  expect(test.body.data.status).toBe('success');
  const delivery = receiver.received.find((d) => d.body.id === test.body.data.eventId) as ReceivedDelivery;
  return { delivery, headers: headersOf(delivery) };
};

describe('a generated secret', () => {
  it('is answered once on creation and verifies with the standardwebhooks defaults, the raw format and our header', async () => {
    const { client, token, webhookId, created } = await subscribe();
    const secret = created.secret as string;
    expect(secret).toMatch(GENERATED);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    // Never again: not on a read, a list or a change.
    const read = await app.request('GET', `/v1/webhooks/${webhookId}`, { token });
    expect(read.body.data).not.toHaveProperty('secret');
    expect(JSON.stringify((await app.request('GET', '/v1/webhooks', { token })).body)).not.toContain(secret);
    const changed = await app.request('PATCH', `/v1/webhooks/${webhookId}`, { token, body: { events: ['user.enrolled'] } });
    expect(changed.body.data).not.toHaveProperty('secret');
    // Stored sealed, as a chosen one is.
    const { rows } = await app.db.query<{ secret_enc: string }>('select secret_enc from webhooks where id = $1', [webhookId]);
    expect(rows[0]?.secret_enc).not.toContain(secret.slice(6, 20));

    const { delivery, headers } = await deliverOne(client);
    // Keyed with the decoded bytes (the library's default), then with the string's UTF-8 bytes (format raw).
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(secret).verify(delivery.raw, headers)).toEqual(delivery.body);
    expect(new Webhook(secret, { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);
    expect(() => new Webhook(secret).verify(`${delivery.raw} `, headers)).toThrow();
    // Another generated secret does not verify it.
    const other = (await subscribe()).created.secret as string;
    expect(() => new Webhook(other).verify(delivery.raw, headers)).toThrow();
    // X-Service-Signature is keyed with the string as given, so the SDK and Stripe verify with the same secret.
    expect(constructEvent(delivery.raw, headers['x-service-signature'], secret).id).toBe(delivery.body.id);
    expect(Stripe.webhooks.constructEvent(delivery.raw, headers['x-service-signature'] as string, secret, 300).id).toBe(
      delivery.body.id,
    );
  });

  it('is different every time, and the same Idempotency-Key answers the same one', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    const create = (key?: string) =>
      app.request('POST', '/v1/webhooks', {
        token,
        body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled'] },
        headers: key ? { 'idempotency-key': key } : {},
      });
    const first = await create('generated-secret-1');
    const replay = await create('generated-secret-1');
    const second = await create();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.secret).toBe(first.body.data.secret);
    expect(second.body.data.secret).toMatch(GENERATED);
    expect(second.body.data.secret).not.toBe(first.body.data.secret);
  });

  it('a chosen secret is not answered and signs as before; one in Standard Webhooks form also verifies with the defaults', async () => {
    const chosen = 'whsec_our-partner-chosen-secret';
    const plain = await subscribe({ secret: chosen });
    expect(plain.created).not.toHaveProperty('secret');
    const { delivery, headers } = await deliverOne(plain.client);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(new Webhook(new TextEncoder().encode(chosen), { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);
    expect(() => new Webhook(chosen).verify(delivery.raw, headers)).toThrow();

    // A partner who made a secret the way the library's docs say (`whsec_` + base64 of 24 bytes or more).
    const standard = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    const shaped = await subscribe({ secret: standard });
    const got = await deliverOne(shaped.client);
    expect(got.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(standard).verify(got.delivery.raw, got.headers)).toEqual(got.delivery.body);
    expect(new Webhook(standard, { format: 'raw' }).verify(got.delivery.raw, got.headers)).toEqual(got.delivery.body);
  });
});

describe('the signing rule', () => {
  it('decodes only a whsec_ secret whose base64 part is 24 to 64 bytes', () => {
    const b64 = (n: number) => Buffer.alloc(n, 1).toString('base64');
    expect(standardSecretKey(`whsec_${b64(32)}`)).toHaveLength(32);
    expect(standardSecretKey(`whsec_${b64(24)}`)).toHaveLength(24);
    expect(standardSecretKey(`whsec_${b64(64)}`)).toHaveLength(64);
    expect(standardSecretKey(`whsec_${b64(23)}`)).toBeUndefined();
    expect(standardSecretKey(`whsec_${b64(65)}`)).toBeUndefined();
    expect(standardSecretKey(b64(32))).toBeUndefined();
    expect(standardSecretKey(`whsec_${b64(32)}-`)).toBeUndefined();
    expect(standardSecretKey('whsec_4f9b2c7e1a6d3f80')).toBeUndefined(); // 12 bytes: a chosen secret, used as given
  });

  it('signs each live secret newest first: decoded, then raw; a chosen one raw only', () => {
    const generated = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const chosen = 'a-chosen-secret-of-ours';
    const mac = (key: Buffer | string) =>
      `v1,${createHmac('sha256', key).update('evt_1.1700000000.{}', 'utf8').digest('base64')}`;
    expect(standardSignatureHeader([generated, chosen], 'evt_1', 1_700_000_000, '{}')).toBe(
      [mac(Buffer.alloc(32, 9)), mac(Buffer.from(generated, 'utf8')), mac(Buffer.from(chosen, 'utf8'))].join(' '),
    );
  });
});

describe('rotating to a generated secret', () => {
  it('answers the new secret once; old and new both verify for 24 h, then only the new one', async () => {
    const { client, token, webhookId, created } = await subscribe();
    const oldSecret = created.secret as string;
    const rotatedAt = app.clock.now();
    // No body at all, as `curl -X POST` sends.
    const rotation = await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token });
    expect(rotation.status).toBe(200);
    const newSecret = rotation.body.data.secret as string;
    expect(newSecret).toMatch(GENERATED);
    expect(newSecret).not.toBe(oldSecret);
    expect(rotation.body.data).toEqual({
      webhookId,
      secret: newSecret,
      previousSecretExpiresAt: new Date(rotatedAt.getTime() + 24 * HOUR).toISOString(),
    });

    const during = await deliverOne(client);
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(4);
    // Byte for byte what the SDK's signer (`npx credit listen`) makes with the same secrets.
    const signed = signWebhookPayload({
      payload: during.delivery.raw,
      secret: [newSecret, oldSecret],
      eventId: during.delivery.body.id,
      timestamp: Number(during.headers['webhook-timestamp']),
    });
    expect(during.headers['webhook-signature']).toBe(signed['webhook-signature']);
    expect(during.headers['x-service-signature']).toBe(signed['x-service-signature']);
    expect(during.headers['x-service-signature']?.split(',')).toHaveLength(3);
    // A receiver still on the old secret and one already on the new one both accept it, with the library's defaults.
    expect(new Webhook(oldSecret).verify(during.delivery.raw, during.headers)).toEqual(during.delivery.body);
    expect(new Webhook(newSecret).verify(during.delivery.raw, during.headers)).toEqual(during.delivery.body);
    for (const secret of [oldSecret, newSecret]) {
      expect(constructEvent(during.delivery.raw, during.headers['x-service-signature'], secret).id).toBe(during.delivery.body.id);
    }

    // A second after the overlap: the old secret no longer signs. The library reads the wall clock, so it is moved too.
    app.clock.advance(24 * HOUR + 1000);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(app.clock.now());
    const after = await testDelivery(await app.currentToken(client), webhookId);
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(after.delivery.raw, after.headers)).toEqual(after.delivery.body);
    expect(() => new Webhook(oldSecret).verify(after.delivery.raw, after.headers)).toThrow();
  });

  it('is documented with an optional body, as the server takes none', async () => {
    const document = (await app.request('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: { required?: boolean; content: Record<string, unknown> } }>>;
    };
    const rotate = document.paths['/v1/webhooks/{webhookId}/rotate-secret']?.post?.requestBody;
    expect(rotate?.content).toHaveProperty('application/json');
    expect(rotate?.required ?? false).toBe(false);
    // A body the create needs stays required.
    expect(document.paths['/v1/webhooks']?.post?.requestBody?.required).toBe(true);
    const { token, webhookId } = await subscribe();
    expect((await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token })).status).toBe(200);
  });

  it('to a chosen secret: not answered, both sign; `{}` generates; a bad secret or another client’s webhook is refused', async () => {
    // The clock may have moved on (above): the library reads the wall clock, so it reads the test clock's time.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(app.clock.now());
    const { token, webhookId, created } = await subscribe();
    const chosen = 'the-next-chosen-secret-0123';
    const rotation = await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token, body: { secret: chosen } });
    expect(rotation.status).toBe(200);
    expect(rotation.body.data).not.toHaveProperty('secret');
    const { delivery, headers } = await testDelivery(token, webhookId);
    expect(new Webhook(chosen, { format: 'raw' }).verify(delivery.raw, headers)).toEqual(delivery.body);
    expect(new Webhook(created.secret).verify(delivery.raw, headers)).toEqual(delivery.body);

    // Through the SDK, with an empty body: a generated one, and the chosen one is now the previous secret.
    const sdk = app.sdk((await subscribe()).client);
    const own = await sdk.call('createWebhook', { body: { url: `${receiver.url}/sdk`, events: ['user.enrolled'] } });
    const viaSdk = await sdk.call('rotateWebhookSecret', { params: { webhookId: own.webhookId }, body: {} });
    expect(viaSdk.secret).toMatch(GENERATED);

    const short = await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token, body: { secret: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.details).toEqual([{ field: 'secret', message: 'must be at least 16 characters' }]);
    const unknown = await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token, body: { key: 'x' } });
    expect(unknown.status).toBe(400);
    const stranger = await app.createClient();
    const theirs = await app.request('POST', `/v1/webhooks/${webhookId}/rotate-secret`, { token: await app.token(stranger) });
    expect(theirs.status).toBe(404);
    // Recorded in the audit trail, as a PATCH of the secret is, without the secret.
    const audit = await app.request('GET', '/v1/audit-events?limit=100', { token });
    expect(audit.status).toBe(200);
    const rotations = audit.body.data.filter(
      (e: { type: string; subject: { webhookId?: string } }) =>
        e.type === 'webhook.secret_rotated' && e.subject.webhookId === webhookId,
    );
    expect(rotations).toHaveLength(1);
    expect(JSON.stringify(audit.body)).not.toContain(chosen);
  });
});
