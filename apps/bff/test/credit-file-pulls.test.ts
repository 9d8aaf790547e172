import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres.ts';
import { chainSpooledEntries } from '../src/modules/audit/chainer.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { countingBureau } from './helpers/counting-bureau.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { openTestDb, usingPostgres } from './helpers/test-db.ts';

const DAY = 86_400_000;

/**
 * Which moments buy a credit file, counted at the bureau adapter and as `bureau.pull` audit entries, on two instances
 * of the API sharing one database: verification's first pull, each monitoring period and refresh now, and nothing else.
 */
let one: TestApp;
let two: TestApp;
let client: TestClient;
const counting = countingBureau();
let userId: string;
let closeDatabases: () => Promise<void>;

beforeAll(async () => {
  const db = await openTestDb();
  one = await startTestApp({ db, keepDb: true, bureau: counting.bureau });
  const otherDb = usingPostgres
    ? await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: db.schema })
    : db;
  two = await startTestApp({ db: otherDb, keepDb: true, bureau: counting.bureau });
  closeDatabases = async () => {
    if (otherDb !== db) await otherDb.close();
    await db.close();
  };
  client = await one.createClient();
  userId = await enrolActiveUser(one, await one.currentToken(client), { ssn: '1001' });
});
afterAll(async () => {
  await two.close();
  await one.close();
  await closeDatabases();
});

/** Both instances' clocks move together, as real time does. */
const advance = (ms: number) => {
  one.clock.advance(ms);
  two.clock.advance(ms);
};

/** `bureau.pull` entries of credit files for the user, from the audit trail. */
const auditedPulls = async (app: TestApp, of: string) => {
  await chainSpooledEntries({ db: app.db });
  const { rows } = await app.db.query<{ n: number }>(
    `select count(*)::int as n from audit_events where user_id = $1 and type = 'bureau.pull' and subject->>'file' = 'credit'`,
    [of],
  );
  return Number(rows[0]?.n);
};

const pullsOf = async (of: string) => {
  const adapter = counting.creditPullsOf(of);
  expect(await auditedPulls(one, of)).toBe(adapter);
  return adapter;
};

/** Every read the widget and the partner make: score, history, offers and the user, by the client and by a user token. */
const readEverything = async (app: TestApp, of: string) => {
  const token = await app.currentToken(client);
  const user = await app.request('GET', `/v1/users/${of}`, { token });
  const userToken = await app.userToken(token, user.body.data.externalUserId);
  const scores: number[] = [];
  for (const bearer of [token, userToken]) {
    for (const path of ['/credit-score', '/credit-score/history', '/offers', '', '/alerts']) {
      const res = await app.request('GET', `/v1/users/${of}${path}`, { token: bearer });
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      if (path === '/credit-score') scores.push(res.body.data.score);
    }
  }
  return scores;
};

describe('reads serve the file on record', () => {
  it('buys no file for reads on two instances, past the cache lifetime and on later days', async () => {
    const before = await pullsOf(userId);
    expect(before).toBe(1);
    const first = await readEverything(one, userId);
    const cacheLifetime = one.ctx.config.READ_CACHE_TTL_MS;
    for (const wait of [cacheLifetime + 2_000, cacheLifetime + 2_000, DAY, 7 * DAY]) {
      advance(wait);
      const seenOnOne = await readEverything(one, userId);
      const seenOnTwo = await readEverything(two, userId);
      // The sandbox file is the one pulled at verification: a later day's read does not change the score.
      expect([...seenOnOne, ...seenOnTwo]).toEqual([...first, ...first]);
    }
    expect(await pullsOf(userId)).toBe(before);
  });

  it('buys one file for refresh now, and none for the reads after it', async () => {
    const before = await pullsOf(userId);
    const token = await two.currentToken(client);
    const refreshed = await two.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(await pullsOf(userId)).toBe(before + 1);
    advance(one.ctx.config.READ_CACHE_TTL_MS + 2_000);
    const scores = await readEverything(one, userId);
    expect(scores[0]).toBe(refreshed.body.data.score);
    await readEverything(two, userId);
    // The day's refresh is used: a second one is refused without a pull.
    const again = await one.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token });
    expect(again.status).toBe(429);
    expect(await pullsOf(userId)).toBe(before + 1);
  });

  it('buys one file per monitoring period, whichever instance runs the job', async () => {
    const before = await pullsOf(userId);
    advance((one.ctx.config.MONITORING_INTERVAL as number) + DAY);
    await runMonitoringUntilIdle(two.ctx);
    await runMonitoringUntilIdle(one.ctx);
    expect(await pullsOf(userId)).toBe(before + 1);
    await readEverything(one, userId);
    await readEverything(two, userId);
    expect(await pullsOf(userId)).toBe(before + 1);
  });

  it('buys twelve files for a test clock advanced twelve periods, and the pulls are the score’s only movers', async () => {
    const token = await one.currentToken(client);
    const clockUser = await enrolActiveUser(one, token, { ssn: '1001', firstName: 'Clock', lastName: 'Rider' });
    const before = await pullsOf(clockUser);
    const created = await one.request('POST', '/v1/sandbox/clocks', { token, body: { name: 'A year of pulls' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clockId = created.body.data.clockId as string;
    const attached = await one.request('POST', `/v1/sandbox/clocks/${clockId}/users`, { token, body: { userIds: [clockUser] } });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    const start = Date.parse(created.body.data.frozenTime);
    const periods = 12;
    const target = new Date(start + periods * (one.ctx.config.MONITORING_INTERVAL as number) + DAY).toISOString();
    const advanced = await one.request('POST', `/v1/sandbox/clocks/${clockId}/advance`, { token, body: { frozenTime: target } });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(202);
    await runClockAdvancesUntilIdle(one.ctx);
    expect(await pullsOf(clockUser)).toBe(before + periods);
    const scores = await readEverything(two, clockUser);
    advance(2 * one.ctx.config.READ_CACHE_TTL_MS);
    expect(await readEverything(one, clockUser)).toEqual(scores);
    expect(await pullsOf(clockUser)).toBe(before + periods);
  });

  it('answers the new score when refresh now finds a freeze lifted since the last pull', async () => {
    const token = await one.currentToken(client);
    const thawed = await enrolActiveUser(one, token, { firstName: 'Thawed', lastName: 'File' });
    // As if the last scheduled pull had found the file frozen: reads are refused until a pull finds it lifted.
    await one.db.query(`update users set monitoring_paused_reason = 'credit_frozen' where id = $1`, [thawed]);
    for (const app of [one, two]) app.ctx.readCache.invalidate([`user:${thawed}`]);
    expect((await one.request('GET', `/v1/users/${thawed}/credit-score`, { token })).body.error?.code).toBe('CREDIT_FROZEN');
    const refreshed = await one.request('POST', `/v1/users/${thawed}/credit-score/refresh`, { token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const read = await one.request('GET', `/v1/users/${thawed}/credit-score`, { token });
    expect(read.body.data.score).toBe(refreshed.body.data.score);
  });

  it('records each committed file once on the audit trail, naming the moment that bought it', async () => {
    await chainSpooledEntries({ db: one.db });
    const { rows } = await one.db.query<{ source: string; n: number }>(
      `select subject->>'source' as source, count(*)::int as n from audit_events
       where user_id = $1 and type = 'credit_file.recorded' group by 1 order by 1`,
      [userId],
    );
    expect(rows.map((r) => [r.source, Number(r.n)])).toEqual([
      ['monitoring', 1],
      ['refresh', 1],
      ['verification', 1],
    ]);
  });
});
