import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedAddress } from '../src/modules/webhooks/assert-webhook-url.ts';
import { insertWebhook } from '../src/modules/webhooks/repo.ts';
import { sealSecret } from '../src/modules/webhooks/secrets.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/webhook-receiver.ts';

const SECRET = 'whsec_subscriptions_0123456789';
const URL_OK = 'https://127.0.0.1:9/hooks';

let app: TestApp;
let client: TestClient;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const create = (body: Record<string, unknown>, t = token) => app.request('POST', '/v1/webhooks', { token: t, body });

describe('webhook subscriptions', () => {
  it('creates, reads, lists, changes and deletes a subscription without ever returning the secret', async () => {
    const created = await create({ url: URL_OK, events: ['user.enrolled', 'user.deleted'], secret: SECRET });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      webhookId: expect.stringMatching(/^wh_/),
      url: URL_OK,
      events: ['user.enrolled', 'user.deleted'],
      status: 'active',
    });
    expect(JSON.stringify(created.body)).not.toContain(SECRET);
    const id = created.body.data.webhookId as string;

    const stored = await app.db.query<{ secret_enc: string }>('select secret_enc from webhooks where id = $1', [id]);
    expect(stored.rows[0]?.secret_enc).not.toContain(SECRET);
    expect(stored.rows[0]?.secret_enc).toMatch(/^v1\./);

    const got = await app.request('GET', `/v1/webhooks/${id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body.data.webhookId).toBe(id);

    const patched = await app.request('PATCH', `/v1/webhooks/${id}`, {
      token,
      body: { events: ['score.changed'], status: 'disabled', secret: 'another-secret-0123456789' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['score.changed'], status: 'disabled' });
    expect(JSON.stringify(patched.body)).not.toContain('another-secret');

    const deleted = await app.request('DELETE', `/v1/webhooks/${id}`, { token });
    expect(deleted.status).toBe(204);
    expect((await app.request('GET', `/v1/webhooks/${id}`, { token })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/webhooks/${id}`, { token })).status).toBe(404);
  });

  it('lists newest first with cursor pagination and a status filter', async () => {
    const own = await app.createClient();
    const t = await app.token(own);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      app.clock.advance(1000);
      ids.push((await create({ url: URL_OK, events: ['user.enrolled'], secret: SECRET }, t)).body.data.webhookId);
    }
    await app.request('PATCH', `/v1/webhooks/${ids[0]}`, { token: t, body: { status: 'disabled' } });
    const first = await app.request('GET', '/v1/webhooks?limit=2', { token: t });
    expect(first.body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([ids[2], ids[1]]);
    expect(first.body.pagination).toMatchObject({ hasMore: true, total: 3 });
    const second = await app.request('GET', `/v1/webhooks?limit=2&cursor=${first.body.pagination.nextCursor}`, { token: t });
    expect(second.body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([ids[0]]);
    expect(second.body.pagination.hasMore).toBe(false);
    const disabled = await app.request('GET', '/v1/webhooks?status=disabled', { token: t });
    expect(disabled.body.data.map((w: { webhookId: string }) => w.webhookId)).toEqual([ids[0]]);
  });

  it('rejects http URLs, short secrets, unknown events and unknown fields, naming each field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ url: 'http://example.com/hooks', events: ['user.enrolled'], secret: SECRET }, 'url'],
      [{ url: URL_OK, events: ['user.enrolled'], secret: 'short' }, 'secret'],
      [{ url: URL_OK, events: ['user.exploded'], secret: SECRET }, 'events.0'],
      [{ url: URL_OK, events: [], secret: SECRET }, 'events'],
      [{ url: URL_OK, events: ['user.enrolled'], secret: SECRET, extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, field).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const created = await create({ url: URL_OK, events: ['user.enrolled'], secret: SECRET });
    const id = created.body.data.webhookId;
    const empty = await app.request('PATCH', `/v1/webhooks/${id}`, { token, body: {} });
    expect(empty.status).toBe(400);
    const failedStatus = await app.request('PATCH', `/v1/webhooks/${id}`, { token, body: { status: 'failed' } });
    expect(failedStatus.status).toBe(400);
    const badTest = await app.request('POST', `/v1/webhooks/${id}/test`, { token, body: { eventType: 'nope' } });
    expect(badTest.status).toBe(400);
    const badLogs = await app.request('GET', `/v1/webhooks/${id}/logs?status=maybe`, { token });
    expect(badLogs.status).toBe(400);
    const badCursor = await app.request('GET', `/v1/webhooks/${id}/logs?cursor=abc`, { token });
    expect(badCursor.status).toBe(400);
  });

  it('hides another client’s subscription (404 on every route)', async () => {
    const created = await create({ url: URL_OK, events: ['user.enrolled'], secret: SECRET });
    const id = created.body.data.webhookId;
    const other = await app.token(await app.createClient());
    const calls: [string, string, unknown?][] = [
      ['GET', `/v1/webhooks/${id}`],
      ['PATCH', `/v1/webhooks/${id}`, { status: 'disabled' }],
      ['DELETE', `/v1/webhooks/${id}`],
      ['POST', `/v1/webhooks/${id}/test`, { eventType: 'user.enrolled' }],
      ['GET', `/v1/webhooks/${id}/logs`],
    ];
    for (const [method, path, body] of calls) {
      const res = await app.request(method, path, { token: other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const list = await app.request('GET', '/v1/webhooks', { token: other });
    expect(list.body.data.map((w: { webhookId: string }) => w.webhookId)).not.toContain(id);
    expect((await app.request('GET', `/v1/webhooks/${id}`, { token })).body.data.status).toBe('active');
  });

  it('answers 403 without the webhooks scope and for user tokens, 401 without a token', async () => {
    const readOnly = await app.token(client, 'read write');
    const res = await create({ url: URL_OK, events: ['user.enrolled'], secret: SECRET }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await app.request('GET', '/v1/webhooks', { token: readOnly })).status).toBe(403);
    const userToken = await app.userToken(token, 'cust-webhook-1');
    expect((await app.request('GET', '/v1/webhooks', { token: userToken })).status).toBe(403);
    expect((await create({ url: URL_OK, events: ['user.enrolled'], secret: SECRET }, userToken)).status).toBe(403);
    expect((await app.request('GET', '/v1/webhooks')).status).toBe(401);
  });
});

describe('address rules', () => {
  it('allows public unicast everywhere and loopback only where loopback receivers are allowed', () => {
    expect(isAllowedAddress('93.184.216.34', false)).toBe(true);
    expect(isAllowedAddress('2606:4700::1111', false)).toBe(true);
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
      '100.64.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isAllowedAddress(address, false), address).toBe(false);
    }
    expect(isAllowedAddress('127.0.0.1', true)).toBe(true);
    expect(isAllowedAddress('10.1.2.3', true)).toBe(false);
  });

  it('judges an IPv6 address that embeds an IPv4 one by the IPv4 address it routes to', () => {
    const refused = [
      '::127.0.0.1', // IPv4-compatible
      '::169.254.169.254',
      '::ffff:127.0.0.1', // IPv4-mapped
      '::ffff:0:10.0.0.1', // IPv4-translated
      '64:ff9b::10.0.0.1', // NAT64
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (inverted)
    ];
    for (const address of refused) expect(isAllowedAddress(address, false), address).toBe(false);
    for (const address of ['::8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(isAllowedAddress(address, false), address).toBe(true);
    }
  });
});

describe('production', () => {
  let prod: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    prod = await startTestApp({
      config: {
        WEBHOOK_CA_FILE: receiver.caFile,
        APP_ENV: 'production',
        DATABASE_URL: 'postgres://not-used-by-the-harness',
        TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
        DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await prod.close();
    await receiver.close();
  });

  it('refuses a private address again at delivery time (a host that changed after creation)', async () => {
    const client = await prod.createClient();
    const t = await prod.token(client);
    // As if DNS had pointed the host elsewhere when it was created: the row bypasses the creation check.
    const id = prod.ctx.ids.id('wh');
    await insertWebhook(prod.db, {
      id,
      clientId: client.id,
      url: receiver.url,
      events: ['user.enrolled'],
      secretEnc: sealSecret(prod.ctx, id, SECRET),
      createdAt: prod.clock.now(),
    });
    const res = await prod.request('POST', `/v1/webhooks/${id}/test`, { token: t, body: { eventType: 'user.enrolled' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'failed', statusCode: 0 });
    // A host name takes the other path: the connect-time lookup hook refuses what it resolves to.
    await prod.db.query('update webhooks set url = $2 where id = $1', [id, receiver.url.replace('127.0.0.1', 'localhost')]);
    const byName = await prod.request('POST', `/v1/webhooks/${id}/test`, { token: t, body: { eventType: 'user.enrolled' } });
    expect(byName.body.data).toMatchObject({ status: 'failed', statusCode: 0 });
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses loopback, private, link-local and metadata hosts at creation and on change', async () => {
    const t = await prod.token(await prod.createClient());
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.0.0.5/hooks',
      'https://192.168.0.10/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00:ec2::254]/hooks',
      'https://[::127.0.0.1]/hooks',
      'https://[::169.254.169.254]/latest/meta-data',
      'https://[64:ff9b::a9fe:a9fe]/hooks',
    ]) {
      const res = await prod.request('POST', '/v1/webhooks', {
        token: t,
        body: { url, events: ['user.enrolled'], secret: SECRET },
      });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'url', message: expect.stringMatching(/loopback|private/) }]);
    }
    const ok = await prod.request('POST', '/v1/webhooks', {
      token: t,
      body: { url: 'https://93.184.216.34/hooks', events: ['user.enrolled'], secret: SECRET },
    });
    expect(ok.status).toBe(201);
    for (const url of ['https://10.0.0.1/x', 'https://[::127.0.0.1]/x', 'https://[::ffff:a9fe:a9fe]/x']) {
      const change = await prod.request('PATCH', `/v1/webhooks/${ok.body.data.webhookId}`, { token: t, body: { url } });
      expect(change.status, url).toBe(400);
    }
  });
});
