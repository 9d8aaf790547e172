import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../src/bootstrap.ts';
import { type HttpBureau, httpBureauFromConfig } from '../src/bureau/http/adapter.ts';
import { systemClock } from '../src/lib/clock.ts';
import { createLogger } from '../src/logger.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, testConfig } from './helpers/harness.ts';
import { productionWithBureau, startTestBureau, type TestBureau } from './helpers/test-bureau.ts';

const CAP = 10;
const FLOOD_USERS = 80;
const QUIET_USERS = 12;

let bureau: TestBureau;
let http: HttpBureau | undefined;
let redis: Redis | undefined;
let app: TestApp;

beforeAll(async () => {
  bureau = await startTestBureau();
  const redisUrl = process.env.REDIS_URL;
  const config = productionWithBureau(bureau, {
    BUREAU_MAX_PER_SECOND: String(CAP),
    BUREAU_TIMEOUT_MS: '5000',
    // The flood is the bureau's share at work, not the API's per-client request limit.
    RATE_LIMIT_USER_OPS_PER_MIN: '1000000',
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  });
  const logger = createLogger('silent');
  redis = redisUrl ? connectRedis(redisUrl, logger) : undefined;
  // No offline queue: until the connection is up the adapter would split by this process's view alone.
  if (redis && redis.status !== 'ready') await new Promise((resolve) => redis?.once('ready', resolve));
  // The adapter waits for slots on real time (the harness's clock is a manual one), as a production instance does.
  http = httpBureauFromConfig(testConfig(config), logger, systemClock, redis);
  app = await startTestApp({ config, bureau: http, redis: Boolean(redisUrl) });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await http?.close();
  redis?.disconnect();
  await bureau.close();
});

const enrolMany = async (token: string, count: number) => {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 8) {
    ids.push(...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, () => enrolUser(app, token)))));
  }
  return ids;
};

describe('two clients sharing the HTTP bureau’s per-second cap', () => {
  it('keeps answering the quiet client’s verification questions while the other floods them, refusing the flood with 429', {
    timeout: 120_000,
  }, async () => {
    const [noisy, quiet] = [await app.createClient(), await app.createClient()];
    const [noisyToken, quietToken] = [await app.token(noisy), await app.token(quiet)];
    const flooded = await enrolMany(noisyToken, FLOOD_USERS);
    const waiting = await enrolMany(quietToken, QUIET_USERS);
    const questions = (token: string, userId: string) =>
      app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
    bureau.calls.length = 0;

    // The noisy client asks for every one of its users' questions within a second, twice over: far over its half.
    const flood = [0, 1].map(async (wave) => {
      await new Promise((resolve) => setTimeout(resolve, wave * 1_000));
      const users = flooded.filter((_, i) => i % 2 === wave);
      return Promise.all(users.map(async (userId) => ({ userId, answer: await questions(noisyToken, userId) })));
    });
    // Meanwhile the quiet client's users come one at a time, as people do.
    const calm = (async () => {
      const answers = [];
      for (const userId of waiting) {
        answers.push(await questions(quietToken, userId));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return answers;
    })();
    const noisyAsked = (await Promise.all(flood)).flat();
    const noisyAnswers = noisyAsked.map((asked) => asked.answer);
    const quietAnswers = await calm;

    expect(quietAnswers.map((a) => a.status)).toEqual(Array(QUIET_USERS).fill(200));
    const statuses = noisyAnswers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    const refused = noisyAnswers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(FLOOD_USERS / 2);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Whatever the flood, each second starts at most the cap's calls. Counted by arrival, a second may also hold calls
    // that started late in the one before, so the bureau sees at most twice the cap in any second (a wave of the flood
    // is 40 calls within a second).
    const perSecond = new Map<number, number>();
    for (const { at } of bureau.calls) perSecond.set(Math.floor(at / 1000), (perSecond.get(Math.floor(at / 1000)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(2 * CAP);
    // One identity file per session answered, none for a refusal.
    expect(bureau.calls.length).toBe(QUIET_USERS + statuses.filter((s) => s === 200).length);

    // A refused user asks again once the flood is over and gets a session: the refusal used up nothing.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const again = noisyAsked.find((asked) => asked.answer.status === 429)?.userId as string;
    expect((await questions(noisyToken, again)).status).toBe(200);
  });
});
