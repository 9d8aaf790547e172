import { RATING_BANDS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  app.clock.set('2026-11-23T10:00:00.000Z');
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const score = (userId: string, as = token) => app.request('GET', `/v1/users/${userId}/credit-score`, { token: as });
const history = (userId: string, query = '', as = token) =>
  app.request('GET', `/v1/users/${userId}/credit-score/history${query}`, { token: as });

describe('GET /v1/users/{userId}/credit-score', () => {
  it('answers the full score object, consistent with its own history', async () => {
    const userId = await enrolActiveUser(app, token);
    const res = await score(userId);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.scoreRange).toEqual({ min: 300, max: 850 });
    expect(data.scoreDate).toBe('2026-11-23');
    const band = RATING_BANDS.find((b) => data.score >= b.min && data.score <= b.max);
    expect(data.rating).toBe(band?.rating);
    expect(['TransUnion', 'Equifax', 'Experian']).toContain(data.bureau);
    expect(data.factors.map((f: { code: string }) => f.code)).toEqual([
      'PAYMENT_HISTORY',
      'CREDIT_UTILIZATION',
      'CREDIT_AGE',
      'CREDIT_MIX',
      'NEW_CREDIT',
    ]);
    const past = await history(userId, '?months=24&limit=100');
    expect(past.body.data[0]).toEqual({ score: data.score, date: '2026-11-23' });
    const threeMonthsAgo = past.body.data.find((e: { date: string }) => e.date === '2026-08-23');
    expect(data.trend).toEqual({
      period: '3months',
      change: data.score - threeMonthsAgo.score,
      direction: data.score > threeMonthsAgo.score ? 'up' : data.score < threeMonthsAgo.score ? 'down' : 'stable',
    });
  });

  it('gives the same enrolment the same score, whoever enrols it', async () => {
    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    const identity = { firstName: 'Ada', lastName: 'Lovelace', ssn: '4321', dateOfBirth: '1979-12-10' };
    const mine = await enrolActiveUser(app, token, identity);
    const theirs = await enrolActiveUser(app, otherToken, identity);
    const [a, b] = [await score(mine), await score(theirs, otherToken)];
    expect(a.body.data.score).toBe(b.body.data.score);
    expect(a.body.data.factors).toEqual(b.body.data.factors);
  });

  it('announces the first score once, even when it is read concurrently', async () => {
    const userId = await enrolActiveUser(app, token);
    const reads = await Promise.all(Array.from({ length: 6 }, () => score(userId)));
    expect(new Set(reads.map((r) => r.status))).toEqual(new Set([200]));
    const updates = (await listEventsForClient(app.db, client.id)).filter(
      (e) => e.type === 'score.updated' && e.data.userId === userId,
    );
    expect(updates).toHaveLength(1);
    expect(updates[0]?.data).toMatchObject({ previousScore: null, change: 0, score: reads[0]?.body.data.score });
    expect((await history(userId, '?months=84&limit=100')).body.pagination.total).toBe(24);
    const user = await app.request('GET', `/v1/users/${userId}`, { token });
    expect(user.body.data.lastScoreDate).toBe('2026-11-23');
  });

  it('refuses before verification, for a frozen file, and for users the caller cannot see', async () => {
    const pending = await enrolUser(app, token);
    const notVerified = await score(pending);
    expect(notVerified.status).toBe(403);
    expect(notVerified.body.error).toMatchObject({ code: 'USER_NOT_ENROLLED', message: expect.stringMatching(/verification/) });
    expect((await history(pending)).body.error.code).toBe('USER_NOT_ENROLLED');

    const frozen = await enrolActiveUser(app, token, { ssn: '0000' });
    for (const res of [await score(frozen), await history(frozen)]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('CREDIT_FROZEN');
    }

    const stranger = await app.token(await app.createClient());
    expect((await score(frozen, stranger)).status).toBe(404);
    expect((await score('usr_doesNotExist123', token)).status).toBe(404);
    const noRead = await app.token(client, 'offers');
    expect((await score(pending, noRead)).body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('lets a user token read its own score and hides everyone else’s', async () => {
    const userId = await enrolActiveUser(app, token, { externalUserId: 'own-score-1' });
    const other = await enrolActiveUser(app, token);
    const userToken = await app.userToken(token, 'own-score-1');
    expect((await score(userId, userToken)).status).toBe(200);
    expect((await history(userId, '', userToken)).status).toBe(200);
    expect((await score(other, userToken)).status).toBe(404);
  });
});

describe('GET /v1/users/{userId}/credit-score/history', () => {
  it('lists the last `months` monthly scores, most recent first', async () => {
    const userId = await enrolActiveUser(app, token);
    const year = await history(userId);
    expect(year.status).toBe(200);
    expect(year.body.data).toHaveLength(12);
    expect(year.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: 12 });
    expect(year.body.data.map((e: { date: string }) => e.date).slice(0, 3)).toEqual(['2026-11-23', '2026-10-23', '2026-09-23']);
    expect((await history(userId, '?months=3')).body.data).toHaveLength(3);
    expect((await history(userId, '?months=84')).body.pagination.total).toBe(24);
  });

  it('pages with an opaque cursor without gaps or repeats', async () => {
    const userId = await enrolActiveUser(app, token);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await history(userId, `?months=24&limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(24);
      seen.push(...res.body.data.map((e: { date: string }) => e.date));
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(24);
    expect(new Set(seen).size).toBe(24);
    expect([...seen].sort().reverse()).toEqual(seen);
  });

  it('answers 400 naming the field for bad query values', async () => {
    const userId = await enrolActiveUser(app, token);
    const cases: [string, string][] = [
      ['?months=0', 'months'],
      ['?months=85', 'months'],
      ['?months=abc', 'months'],
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?cursor=garbage', 'cursor'],
      ['?colour=blue', 'colour'],
    ];
    for (const [query, field] of cases) {
      const res = await history(userId, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field).join(' '), query).toContain(field);
    }
    const first = await history(userId, '?months=12&limit=2');
    const reused = await history(userId, `?months=24&limit=2&cursor=${first.body.pagination.nextCursor}`);
    expect(reused.status).toBe(400);
  });
});
