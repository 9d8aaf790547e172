import { afterAll, describe, expect, it } from 'vitest';
import { changeClient } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { openTestDb } from './helpers/test-db.ts';

const apps: TestApp[] = [];
const start = async (...args: Parameters<typeof startTestApp>) => {
  const app = await startTestApp(...args);
  apps.push(app);
  return app;
};
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
});

describe('rate limits', () => {
  it('counts per client, sets X-RateLimit-* and answers 429 with Retry-After and retryAfter', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '3' } });
    const clientA = await app.createClient();
    const tokenA = await app.token(clientA);
    const tokenB = await app.token(await app.createClient());
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('GET', '/v1/users', { token: tokenA });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(res.headers.get('x-ratelimit-remaining') as string);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await app.request('GET', '/v1/users', { token: tokenA });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body.error.retryAfter).toBe(retryAfter);
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);

    expect((await app.request('GET', '/v1/users', { token: tokenB })).status).toBe(200);
    const tokenEndpoint = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: clientA.id, client_secret: clientA.secret },
    });
    expect(tokenEndpoint.status).toBe(200);
    expect(tokenEndpoint.headers.get('x-ratelimit-limit')).toBe('100');
  });

  it('dates X-RateLimit-Reset by the server’s clock, within the minute the window lasts', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '2' } });
    const client = await app.createClient();
    // A day ahead of the machine: the reset is a minute from the server's now, not from the machine's.
    app.clock.advance(24 * 60 * 60_000);
    const token = await app.token(client);
    for (const expected of [200, 200, 429]) {
      const res = await app.request('GET', '/v1/users', { token });
      expect(res.status).toBe(expected);
      const now = app.clock.now().getTime() / 1000;
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
      expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 60);
    }
  });

  it('counts a user token in its customer’s own window and in its client’s, so the windows add up', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '6', RATE_LIMIT_USER_TOKEN_PER_MIN: '3' } });
    const client = await app.createClient();
    const accessToken = await app.token(client);
    const ana = await app.userToken(accessToken, 'cust-ana');
    const ben = await app.userToken(accessToken, 'cust-ben');
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('GET', '/v1/me', { token: ana });
      expect(res.status).toBe(403);
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    // Ana's own window (3) runs out first; the client's (6) has 3 left.
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await app.request('GET', '/v1/me', { token: ana });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');

    // Ben has his own window, but spends the same client window as Ana and the partner's server.
    expect((await app.request('GET', '/v1/me', { token: ben })).headers.get('x-ratelimit-remaining')).toBe('2');
    const server = await app.request('GET', '/v1/users', { token: accessToken });
    expect(server.status).toBe(200);
    expect(server.headers.get('x-ratelimit-remaining')).toBe('1');
    const last = await app.request('GET', '/v1/me', { token: ben });
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    // Ben has one request of his own left, but the client's window is spent.
    const overClient = await app.request('GET', '/v1/me', { token: ben });
    expect(overClient.status).toBe(429);
    expect(overClient.headers.get('x-ratelimit-limit')).toBe('6');
  });

  it('limits the token endpoint per client, in its own bucket', async () => {
    const app = await start({ config: { RATE_LIMIT_AUTH_PER_MIN: '2' } });
    const client = await app.createClient();
    const form = { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret };
    expect((await app.request('POST', '/oauth/token', { form })).status).toBe(200);
    expect((await app.request('POST', '/oauth/token', { form: { ...form, client_secret: 'wrong' } })).status).toBe(401);
    const third = await app.request('POST', '/oauth/token', { form });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('applies a client’s own limits set by the operator', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '3' } });
    const client = await app.createClient();
    await changeClient(app.db, client.id, { rateLimits: { userOps: 5000 } });
    await app.invalidationsArrived();
    const res = await app.request('GET', '/v1/users', { token: await app.token(client) });
    expect(res.headers.get('x-ratelimit-limit')).toBe('5000');
  });

  it('counts unauthenticated callers by address', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '2' } });
    await app.request('GET', '/v1/users');
    await app.request('GET', '/v1/nowhere');
    const third = await app.request('GET', '/v1/users');
    expect(third.status).toBe(429);
  });

  it('counts pages outside the API reference, OPTIONS and unknown routes too, each with the headers', async () => {
    const app = await start({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '5' } });
    const remaining: (string | null)[] = [];
    for (const path of ['/health', '/openapi.json', '/v1/nowhere', '/v1/users/']) {
      remaining.push((await app.request('GET', path)).headers.get('x-ratelimit-remaining'));
    }
    // Express answers OPTIONS itself (Allow), outside the OpenAPI document the harness checks against.
    const options = await fetch(`${app.url}/v1/users`, { method: 'OPTIONS' });
    remaining.push(options.headers.get('x-ratelimit-remaining'));
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expect((await app.request('GET', '/docs')).status).toBe(429);
  });

  it('counts a request once, in the bucket of the operation it names, even when the database cannot say who calls', async () => {
    const app = await start({
      keepDb: true,
      config: { RATE_LIMIT_USER_OPS_PER_MIN: '9', RATE_LIMIT_BATCH_PER_MIN: '7', RATE_LIMIT_AUTH_PER_MIN: '5' },
    });
    const client = await app.createClient();
    // Minted, never used: resolving it needs the database, which is gone.
    const unresolved = await app.token(client);
    await app.db.close();
    const batch = await app.request('POST', '/v1/users/enroll/batch', { token: unresolved, body: { users: [] } });
    expect(batch.status).toBe(503);
    expect(batch.headers.get('x-ratelimit-limit')).toBe('7');
    expect(batch.headers.get('x-ratelimit-remaining')).toBe('6');
    const token = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret },
    });
    expect(token.status).toBe(503);
    expect(token.headers.get('x-ratelimit-limit')).toBe('5');
    expect(token.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  it.skipIf(!process.env.REDIS_URL)('shares one count across instances through Redis', async () => {
    const url = process.env.REDIS_URL as string;
    // No FLUSHDB: other test files may be using this Redis database at the same time. The counts live under keys
    // named by the client's id, new and random for this test, so no earlier run's count can be found there.
    const db = await openTestDb();
    const config = { RATE_LIMIT_USER_OPS_PER_MIN: '4', REDIS_URL: url };
    const one = await start({ db, keepDb: true, config, redis: true });
    const two = await start({ db, config, redis: true });
    const client = await one.createClient();
    const token = await one.token(client);
    const statuses: number[] = [];
    for (const app of [one, two, one, two, one]) statuses.push((await app.request('GET', '/v1/users', { token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
