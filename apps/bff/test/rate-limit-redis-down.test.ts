import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { closedPort, startStalledRedis } from './helpers/stalled-redis.ts';
import { openTestDb } from './helpers/test-db.ts';

/**
 * With REDIS_URL, Redis holds the shared counts; when it is down or stops answering, each instance keeps
 * limiting in its own memory (the insurance limiter) and every request still gets its answer.
 */
const apps: TestApp[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const app of apps.reverse()) await app.close();
  for (const cleanup of cleanups) await cleanup();
});

const start = async (redisUrl: string, config: Record<string, string> = {}, db?: TestApp['db']) => {
  const app = await startTestApp({
    config: { RATE_LIMIT_USER_OPS_PER_MIN: '3', REDIS_URL: redisUrl, ...config },
    redis: true,
    ...(db ? { db, keepDb: true } : {}),
  });
  apps.push(app);
  return app;
};

/** Five reads in a row, as the client; each must be answered with limits, whatever Redis does. */
const fiveReads = async (app: TestApp, token: string) => {
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await app.request('GET', '/v1/users', { token });
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    statuses.push(res.status);
  }
  return statuses;
};

describe('rate limits with Redis unavailable', () => {
  it('keeps answering, and limiting, when nothing listens at REDIS_URL', async () => {
    const app = await start(`redis://127.0.0.1:${await closedPort()}`, { RATE_LIMIT_AUTH_PER_MIN: '1000' });
    const token = await app.token(await app.createClient());
    expect(await fiveReads(app, token)).toEqual([200, 200, 200, 429, 429]);
  });

  it('keeps answering, and limiting, when Redis accepts connections but stops answering commands', async () => {
    const stalled = await startStalledRedis();
    cleanups.push(stalled.close);
    const app = await start(stalled.url, { RATE_LIMIT_AUTH_PER_MIN: '1000' });
    const token = await app.token(await app.createClient());
    expect(await fiveReads(app, token)).toEqual([200, 200, 200, 429, 429]);
    // The limiter really did ask this "Redis" (and got no answer), rather than never connecting.
    expect(stalled.commandsSeen().some((name) => name === 'EVALSHA' || name === 'EVAL')).toBe(true);
  });
});

describe.skipIf(!process.env.REDIS_URL)('rate limits with Redis', () => {
  it('answers a key over its limit from memory, without asking Redis again', async () => {
    const url = process.env.REDIS_URL as string;
    const redis = new Redis(url);
    cleanups.push(async () => redis.disconnect());
    const db = await openTestDb();
    const one = await start(url, {}, db);
    const two = await start(url, {}, db);
    const client = await one.createClient();
    const token = await one.token(client);
    for (const app of [one, two, one]) expect((await app.request('GET', '/v1/users', { token })).status).toBe(200);
    // `one` counted the third and last allowed request, so it blocks the key in its own memory.
    const keys = await redis.keys(`*${client.id}*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    // Redis forgot the count: `two` asks it and is allowed; `one` still refuses without asking.
    expect((await two.request('GET', '/v1/users', { token })).status).toBe(200);
    expect((await one.request('GET', '/v1/users', { token })).status).toBe(429);
  });
});
