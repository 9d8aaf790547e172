import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/** RFC 6749 §5.2: credentials that name no client are `401 invalid_client` in the RFC body, whatever they hold. */
let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
});
afterAll(() => app.close());

const tokenCount = async () =>
  Number((await app.db.query<{ n: number }>('select count(*)::int as n from access_tokens')).rows[0]?.n);

const expectInvalidClient = (res: { status: number; body: unknown; headers: Headers }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body).toEqual({
    error: 'invalid_client',
    error_description: expect.any(String),
    error_uri: expect.stringMatching(/\/docs\/errors#invalid_client$/),
  });
  expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
};

describe('POST /oauth/token with control characters in the credentials', () => {
  it.each(['cli_sbx_\u0000', 'a\u0000b'])('client_id %j in the form body → 401 invalid_client', async (clientId) => {
    const before = await tokenCount();
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: clientId, client_secret: client.secret },
    });
    expectInvalidClient(res);
    expect(await tokenCount()).toBe(before);
  });

  it('the real client id with a NUL appended → 401 invalid_client', async () => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: `${client.id}\u0000`, client_secret: client.secret },
    });
    expectInvalidClient(res);
  });

  it.each([
    ['raw', 'cli_sbx_someone\u0000:secret'],
    ['form-encoded', 'a%00b:secret'],
  ])('client_id with a NUL in Basic credentials (%s) → 401 invalid_client', async (_, credentials) => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
    });
    expectInvalidClient(res);
  });

  it('a NUL in the secret → 401 invalid_client', async () => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: `${client.secret}\u0000` },
    });
    expectInvalidClient(res);
  });
});

describe('POST /oauth/token with an empty form', () => {
  it('is 400 invalid_request naming grant_type, never a 500', async () => {
    const res = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_request', error_description: 'grant_type is required.' });
  });
});
