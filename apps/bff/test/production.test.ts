import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { changeClient } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

const productionEnv = {
  APP_ENV: 'production',
  DATABASE_URL: 'postgres://not-used-by-the-harness',
  TOKEN_SIGNING_KEY: randomBytes(32).toString('base64'),
  DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ config: { ...productionEnv, TRUST_PROXY: 'loopback' } });
});
afterAll(() => app.close());

describe('production', () => {
  it('refuses to start without its secrets', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/DATABASE_URL, TOKEN_SIGNING_KEY, DATA_ENCRYPTION_KEY/);
    expect(() => loadConfig({ ...productionEnv, TOKEN_SIGNING_KEY: '' })).toThrow(/TOKEN_SIGNING_KEY/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('issues live credentials and refuses sandbox tokens', async () => {
    const client = await app.createClient();
    expect(client.id).toMatch(/^cli_live_/);
    const token = await app.token(client);
    expect(token).toMatch(/^at_live_/);
    const sandboxToken = await app.request('GET', '/v1/users', { headers: { authorization: `Bearer at_sbx_${'A'.repeat(40)}` } });
    expect(sandboxToken.status).toBe(401);
    expect(sandboxToken.body.error.message).toMatch(/sandbox token/);
  });

  it('enforces a client’s IP allowlist on the token endpoint and the API, honouring trusted proxies', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    await changeClient(app.db, client.id, { ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'] });
    await app.invalidationsArrived();

    const direct = await app.request('GET', '/v1/users', { token });
    expect(direct.status).toBe(403);
    expect(direct.body.error).toMatchObject({ code: 'AUTHORIZATION_ERROR', message: expect.stringMatching(/IP address/) });
    // From a wrong address a right secret answers exactly as a wrong one: nothing tells an attacker it was right.
    const tokenRequest = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
    });
    const wrongSecret = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: 'not-the-secret-0123456789' },
    });
    expect(tokenRequest.status).toBe(401);
    expect(tokenRequest.body).toEqual(wrongSecret.body);
    expect(tokenRequest.status).toBe(wrongSecret.status);

    const viaProxy = await app.request('GET', '/v1/users', { token, headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(viaProxy.status).toBe(200);
    const outsider = await app.request('GET', '/v1/users', { token, headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(outsider.status).toBe(403);

    await changeClient(app.db, client.id, { ipAllowlist: ['127.0.0.1'] });
    await app.invalidationsArrived();
    expect((await app.request('GET', '/v1/users', { token })).status).toBe(200);
  });

  it('applies the allowlist to minting user tokens, not to the customers who use them', async () => {
    const client = await app.createClient();
    const token = await app.token(client);
    await changeClient(app.db, client.id, { ipAllowlist: ['203.0.113.0/24'] });
    await app.invalidationsArrived();
    const partnerServer = { 'x-forwarded-for': '203.0.113.9' };
    const body = { userId: 'cust-allowlist', email: 'c@example.test', firstName: 'Ana', lastName: 'Ruiz' };

    const fromElsewhere = await app.request('POST', '/v1/auth/user-token', { token, body });
    expect(fromElsewhere.status).toBe(403);
    const minted = await app.request('POST', '/v1/auth/user-token', { token, body, headers: partnerServer });
    expect(minted.status).toBe(201);

    // The customer's phone is on some other network.
    const me = await app.request('GET', '/v1/me', {
      token: minted.body.data.userToken,
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    expect(me.status).toBe(403);
    expect(me.body.error.code).toBe('USER_NOT_ENROLLED');
  });
});

describe('sandbox', () => {
  it('does not enforce IP allowlists', async () => {
    const sandbox = await startTestApp();
    const client = await sandbox.createClient({ ipAllowlist: ['203.0.113.0/24'] });
    expect((await sandbox.request('GET', '/v1/users', { token: await sandbox.token(client) })).status).toBe(200);
    const live = await sandbox.request('GET', '/v1/users', { headers: { authorization: `Bearer at_live_${'A'.repeat(40)}` } });
    expect(live.status).toBe(401);
    await sandbox.close();
  });
});
