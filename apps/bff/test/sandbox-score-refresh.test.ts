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

const refresh = (userId: string, body: unknown = {}, as = token) =>
  app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token: as, body });
const currentScore = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}/credit-score`, { token })).body.data.score as number;
const eventsOf = async (userId: string, type: string) =>
  (await listEventsForClient(app.db, client.id)).filter((e) => e.type === type && e.data.userId === userId);

describe('POST /v1/sandbox/users/{userId}/score-refresh', () => {
  it('records a big move: score.updated, score.changed and an unread score_change alert', async () => {
    const userId = await enrolActiveUser(app, token);
    const before = await currentScore(userId);
    const target = before > 700 ? before - 40 : before + 40;
    app.clock.advance(60_000);
    const res = await refresh(userId, { score: target });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ score: target, previousScore: before, scoreDate: '2026-11-23' });
    expect(await currentScore(userId)).toBe(target);

    const change = target - before;
    const expected = { userId, score: target, previousScore: before, change, scoreDate: '2026-11-23' };
    expect((await eventsOf(userId, 'score.updated')).at(-1)?.data).toMatchObject(expected);
    expect((await eventsOf(userId, 'score.changed'))[0]?.data).toMatchObject({
      ...expected,
      direction: change > 0 ? 'up' : 'down',
    });
    const alerts = await app.request('GET', `/v1/users/${userId}/alerts?type=score_change`, { token });
    expect(alerts.body.data).toHaveLength(1);
    expect(alerts.body.data[0]).toMatchObject({
      status: 'unread',
      data: { previousScore: before, newScore: target, change },
    });
    const history = await app.request('GET', `/v1/users/${userId}/credit-score/history?limit=100`, { token });
    expect(history.body.data[0]).toEqual({ score: target, date: '2026-11-23' });
    const threeMonthsAgo = history.body.data.find((e: { date: string }) => e.date === '2026-08-23').score;
    const read = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
    expect(read.body.data.trend).toEqual({
      direction: target > threeMonthsAgo ? 'up' : target < threeMonthsAgo ? 'down' : 'stable',
      change: target - threeMonthsAgo,
      period: '3months',
    });
  });

  it('a move of 10 points or less is only score.updated, with no alert', async () => {
    const userId = await enrolActiveUser(app, token);
    const before = await currentScore(userId);
    const res = await refresh(userId, { score: before + (before > 800 ? -10 : 10) });
    expect(res.status).toBe(200);
    expect(await eventsOf(userId, 'score.changed')).toHaveLength(0);
    expect((await eventsOf(userId, 'score.updated')).at(-1)?.data.change).toBe(before > 800 ? -10 : 10);
    expect((await app.request('GET', `/v1/users/${userId}/alerts`, { token })).body.data).toHaveLength(0);
  });

  it('without a score moves to the next score of the synthetic file, the same for the same user', async () => {
    const userId = await enrolActiveUser(app, token);
    const first = await refresh(userId);
    expect(first.status).toBe(200);
    expect(first.body.data.score).not.toBe(first.body.data.previousScore);
    const second = await refresh(userId, {});
    expect(second.body.data.previousScore).toBe(first.body.data.score);
  });

  it('serialises concurrent refreshes: each one’s previous score is the one before it', async () => {
    const userId = await enrolActiveUser(app, token);
    const start = await currentScore(userId);
    const targets = Array.from({ length: 8 }, (_, i) => 400 + i * 50);
    const results = await Promise.all(targets.map((score) => refresh(userId, { score })));
    expect(results.map((r) => r.status)).toEqual(targets.map(() => 200));
    const updates = (await eventsOf(userId, 'score.updated')).slice(1);
    expect(updates).toHaveLength(8);
    let previous = start;
    for (const event of updates) {
      expect(event.data.previousScore).toBe(previous);
      previous = event.data.score as number;
    }
  });

  it('refuses bad input, unverified and frozen users, and callers without admin', async () => {
    const userId = await enrolActiveUser(app, token);
    for (const body of [{ score: 900 }, { score: 299 }, { score: 700.5 }, { score: '700' }, { points: 5 }]) {
      const res = await refresh(userId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
    expect((await refresh(await enrolUser(app, token))).body.error.code).toBe('USER_NOT_ENROLLED');
    expect((await refresh(await enrolActiveUser(app, token, { ssn: '0000' }))).body.error.code).toBe('CREDIT_FROZEN');
    const readOnly = await app.token(client, 'read write offers webhooks');
    expect((await refresh(userId, {}, readOnly)).body.error.code).toBe('AUTHORIZATION_ERROR');
    const stranger = await app.token(await app.createClient());
    expect((await refresh(userId, {}, stranger)).status).toBe(404);
  });
});
