import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateClientSecret } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { checkedFetch } from './helpers/openapi-check.ts';

let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient({ scopes: ['read', 'write', 'offers'] });
});
afterAll(() => app.close());

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('POST /oauth/token', () => {
  it('issues a bearer token for client_secret_post, with no-store caching and all client scopes', async () => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write offers' });
    expect(res.body.access_token).toMatch(/^at_sbx_/);
  });

  it('accepts client_secret_basic', async () => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials' },
      headers: { authorization: basic(client.id, client.secret) },
    });
    expect(res.status).toBe(200);
  });

  it('works with a third-party OAuth client library (oauth4webapi, client_secret_basic and _post)', async () => {
    const as: oauth.AuthorizationServer = { issuer: app.url, token_endpoint: `${app.url}/oauth/token` };
    for (const auth of [oauth.ClientSecretBasic(client.secret), oauth.ClientSecretPost(client.secret)]) {
      const response = await oauth.clientCredentialsGrantRequest(
        as,
        { client_id: client.id },
        auth,
        new URLSearchParams({ scope: 'read offers' }),
        { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: checkedFetch },
      );
      const result = await oauth.processClientCredentialsResponse(as, { client_id: client.id }, response);
      expect(result.token_type).toBe('bearer');
      expect(result.scope).toBe('read offers');
      const me = await app.request('GET', '/v1/users', { token: result.access_token });
      expect(me.status).toBe(200);
    }
  });

  it('answers invalid_client (401 + WWW-Authenticate) for a wrong secret or unknown client', async () => {
    const forms: Record<string, string>[] = [
      { grant_type: 'client_credentials', client_id: client.id, client_secret: 'wrong' },
      { grant_type: 'client_credentials', client_id: 'cli_sbx_nobody', client_secret: 'x' },
      { grant_type: 'client_credentials' },
    ];
    for (const form of forms) {
      const res = await app.request('POST', '/oauth/token', { form });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
      expect(res.body.error_description).toEqual(expect.any(String));
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });

  it('answers the RFC errors for bad grant types, scopes and requests', async () => {
    const base = { client_id: client.id, client_secret: client.secret };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, grant_type: 'password' }, 'unsupported_grant_type'],
      [{ ...base }, 'invalid_request'],
      [{ ...base, grant_type: 'client_credentials', scope: 'webhooks' }, 'invalid_scope'],
      [{ ...base, grant_type: 'client_credentials', scope: 'read superpowers' }, 'invalid_scope'],
    ];
    for (const [form, error] of cases) {
      const res = await app.request('POST', '/oauth/token', { form });
      expect(res.status, error).toBe(400);
      expect(res.body.error).toBe(error);
    }
    const json = await app.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', ...base } });
    expect(json.status).toBe(400);
    expect(json.body.error).toBe('invalid_request');
    const both = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', ...base },
      headers: { authorization: basic(client.id, client.secret) },
    });
    expect(both.body.error).toBe('invalid_request');
  });

  it('grants only the requested scopes, and a token without a scope is refused with 403', async () => {
    const readOnly = await app.token(client, 'read');
    expect((await app.request('GET', '/v1/users', { token: readOnly })).status).toBe(200);
    const res = await app.request('POST', '/v1/users/enroll', { token: readOnly, body: {} });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });
});

describe('bearer tokens', () => {
  it('expire after 3600 seconds (injected clock)', async () => {
    const token = await app.token(client);
    app.clock.advance(3599 * 1000);
    expect((await app.request('GET', '/v1/users', { token })).status).toBe(200);
    app.clock.advance(1000);
    const res = await app.request('GET', '/v1/users', { token });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'AUTHENTICATION_ERROR', message: expect.stringMatching(/expired/) });
  });

  it('are refused when missing, malformed, unknown or from the other environment', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /Bearer/],
      [{ authorization: 'Bearer nonsense' }, /malformed/],
      [{ authorization: 'Bearer at_sbx_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, /not valid/],
      [{ authorization: 'Bearer at_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, /production token/],
    ];
    for (const [headers, message] of cases) {
      const res = await app.request('GET', '/v1/users', { headers });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
      expect(res.body.error.message).toMatch(message);
    }
  });

  it('stop working at once when the client secret is rotated', async () => {
    const rotating = await app.createClient();
    const token = await app.token(rotating);
    const { secret } = await rotateClientSecret(app.db, app.clock, rotating.id);
    await app.invalidationsArrived();
    const res = await app.request('GET', '/v1/users', { token });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
    expect((await app.request('GET', '/v1/users', { token: await app.token({ id: rotating.id, secret }) })).status).toBe(200);
    const old = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: rotating.id, client_secret: rotating.secret },
    });
    expect(old.status).toBe(401);
  });

  it('are stored only as hashes', async () => {
    const token = await app.token(client);
    const { rows } = await app.db.query<{ token_hash: string }>('select token_hash from access_tokens');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash.includes(token) || token.includes(r.token_hash))).toBe(false);
    const secrets = await app.db.query<{ secret_hash: string }>('select secret_hash from clients');
    expect(secrets.rows.every((r) => r.secret_hash.startsWith('scrypt$') && !r.secret_hash.includes(client.secret))).toBe(true);
  });
});

describe('odd credentials', () => {
  it('answer invalid_client for undecodable Basic credentials, never 500', async () => {
    for (const raw of ['%E0%A4%A:x', ':nosuchid', 'no-colon-at-all']) {
      const res = await app.request('POST', '/oauth/token', {
        form: { grant_type: 'client_credentials' },
        headers: { authorization: `Basic ${Buffer.from(raw).toString('base64')}` },
      });
      expect(res.status, raw).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
  });
});
