import { ALERT_TYPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrolActiveUser, partnerConsent } from './helpers/credit-users.ts';
import { enrollment, productionEnv, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

const DAY = 86_400_000;
const HOOK_SECRET = 'whsec_clocks_0123456789abcdef';

let app: TestApp;
let client: TestClient;
let token: string;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  receiver = await startReceiver();
  // The product's calendar months (no fixed interval), as a partner's clock runs them.
  app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile, MONITORING_INTERVAL: '' } });
  client = await app.createClient();
  token = await app.token(client);
  const hook = await app.request('POST', '/v1/webhooks', {
    token,
    body: {
      url: `${receiver.url}/clocks`,
      events: ['alert.created', 'score.updated', 'sandbox.clock.ready', 'user.deleted'],
      secret: HOOK_SECRET,
    },
  });
  expect(hook.status).toBe(201);
  dispatcher = startDispatcher(app.ctx);
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await receiver.close();
});

const post = (path: string, body?: unknown) => app.request('POST', path, { token, body });
const get = (path: string) => app.request('GET', path, { token });
const createClock = async (body: Record<string, unknown> = {}) => {
  const res = await post('/v1/sandbox/clocks', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { clockId: string; frozenTime: string; status: string; userCount: number };
};
const historyOf = async (userId: string, months = 84) =>
  (await get(`/v1/users/${userId}/credit-score/history?months=${months}&limit=100`)).body as {
    data: { date: string }[];
    pagination: { total: number };
  };
const alertsOf = async (userId: string) =>
  (await get(`/v1/users/${userId}/alerts?limit=100`)).body.data as { alertId: string; type: string; createdAt: string }[];
const count = async (sql: string, params: unknown[]) => Number((await app.db.query<{ n: number }>(sql, params)).rows[0]?.n);
const eventsOf = (userId: string, type: string) =>
  count(`select count(*)::int as n from outbox_events where type = $1 and data->>'userId' = $2`, [type, userId]);

describe('consent on a clock', () => {
  it('lists the users an advance paused and why, on the clock and in sandbox.clock.ready', async () => {
    // A consent the partner attests expires a year after it was accepted, in clock time; a sandbox default never does.
    const attested = await enrolActiveUser(app, token, { ssn: '1002', consent: partnerConsent(app) });
    const defaulted = await enrolActiveUser(app, token, { ssn: '1002' });
    await runMonitoringUntilIdle(app.ctx);
    const clock = await createClock({ name: 'Past the consent' });
    expect((await post(`/v1/sandbox/clocks/${clock.clockId}/users`, { userIds: [attested, defaulted] })).status).toBe(200);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).body.data.pausedUsers).toEqual([]);

    const target = new Date(new Date(clock.frozenTime).getTime() + 400 * DAY).toISOString();
    expect((await post(`/v1/sandbox/clocks/${clock.clockId}/advance`, { frozenTime: target })).status).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);

    const paused = [{ userId: attested, reason: 'consent_expired' }];
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).body.data.pausedUsers).toEqual(paused);
    expect((await get(`/v1/users/${attested}`)).body.data.monitoring).toMatchObject({
      status: 'paused',
      pausedReason: 'consent_expired',
    });
    const ready = await waitFor(() => {
      const found = receiver.received.find((d) => d.body.type === 'sandbox.clock.ready' && d.body.data.clockId === clock.clockId);
      expect(found).toBeDefined();
      return found;
    });
    expect(ready?.body.data.pausedUsers).toEqual(paused);
  });
});

describe('advancing a clock a year', () => {
  it('runs each month once for every user, dated in clock time, and says when it is ready', async () => {
    const story = await enrolActiveUser(app, token, { ssn: '1001', firstName: 'Story', lastName: 'Teller' });
    const quiet = await enrolActiveUser(app, token, { ssn: '1002', firstName: 'Quiet', lastName: 'Keeper' });
    // Period 0 (at verification) runs in real time, before the users join the clock.
    await runMonitoringUntilIdle(app.ctx);
    const before = { story: (await historyOf(story)).pagination.total, quiet: (await historyOf(quiet)).pagination.total };
    const alertsBefore = (await alertsOf(story)).length;

    const clock = await createClock({ name: 'A year of monitoring' });
    expect(clock).toMatchObject({ status: 'ready', userCount: 0 });
    const attached = await post(`/v1/sandbox/clocks/${clock.clockId}/users`, { userIds: [story, quiet] });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect(attached.body.data.userCount).toBe(2);

    const start = new Date(clock.frozenTime);
    // A calendar year later: the verification day's date a year on (the periods fall on it each month).
    const lastDay = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth() + 1, 0)).getUTCDate();
    const target = new Date(
      Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), Math.min(start.getUTCDate(), lastDay), 23, 59),
    ).toISOString();
    const advance = await post(`/v1/sandbox/clocks/${clock.clockId}/advance`, { frozenTime: target });
    expect(advance.status, JSON.stringify(advance.body)).toBe(202);
    expect(advance.body.data).toMatchObject({ status: 'advancing', frozenTime: clock.frozenTime });

    // While it advances: reads are served, another advance and writes about its users are refused.
    const again = await post(`/v1/sandbox/clocks/${clock.clockId}/advance`, { frozenTime: target });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CLOCK_ADVANCING');
    const write = await post(`/v1/sandbox/users/${story}/alerts`, { type: 'new_inquiry' });
    expect(write.status).toBe(409);
    expect(write.body.error.code).toBe('CLOCK_ADVANCING');
    const refresh = await post(`/v1/users/${story}/credit-score/refresh`);
    expect(refresh.body.error.code).toBe('CLOCK_ADVANCING');
    const removal = await app.request('DELETE', `/v1/users/${quiet}`, { token });
    expect(removal.body.error.code).toBe('CLOCK_ADVANCING');
    const removeClock = await app.request('DELETE', `/v1/sandbox/clocks/${clock.clockId}`, { token });
    expect(removeClock.body.error.code).toBe('CLOCK_ADVANCING');
    expect((await get(`/v1/users/${story}`)).status).toBe(200);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).body.data.status).toBe('advancing');

    const report = await runClockAdvancesUntilIdle(app.ctx);
    expect(report.clocks).toBe(1);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).body.data).toMatchObject({ status: 'ready', frozenTime: target });

    // Twelve calendar months: one history point each, in twelve distinct months, for the quiet file too.
    expect((await historyOf(story)).pagination.total).toBe(before.story + 12);
    expect((await historyOf(quiet)).pagination.total).toBe(before.quiet + 12);
    // Every pull records a score: the quiet file is pulled at its periods only; the story's changes between periods are
    // also pulled on their days (the bureau's triggers, at the day's start), and each such pull finds an alert.
    expect(await eventsOf(quiet, 'score.updated')).toBe(13);
    const updates = (
      await app.db.query<{ created_at: Date }>(
        `select created_at from outbox_events where type = 'score.updated' and data->>'userId' = $1`,
        [story],
      )
    ).rows.map((row) => new Date(row.created_at).toISOString());
    const triggered = updates.filter((at) => at.endsWith('T00:00:00.000Z'));
    expect(updates.length - triggered.length).toBe(13);
    expect(triggered.length).toBeGreaterThan(0);

    const alerts = await alertsOf(story);
    for (const at of triggered)
      expect(
        alerts.some((alert) => alert.createdAt === at),
        at,
      ).toBe(true);
    expect(new Set(alerts.map((a) => a.type))).toEqual(new Set(ALERT_TYPES));
    expect(await alertsOf(quiet)).toEqual([]);
    expect(await eventsOf(quiet, 'alert.created')).toBe(0);
    // Alerts raised by the advance are dated in clock time, spread over the clock's year.
    const raised = alerts.slice(0, alerts.length - alertsBefore);
    for (const alert of raised) {
      expect(Date.parse(alert.createdAt)).toBeGreaterThan(start.getTime());
      expect(Date.parse(alert.createdAt)).toBeLessThanOrEqual(Date.parse(target));
    }
    expect(new Set(raised.map((a) => a.createdAt.slice(0, 7))).size).toBeGreaterThan(3);

    // The user lives at the clock's time: monitoring fields and the history window follow it.
    const user = (await get(`/v1/users/${story}`)).body.data;
    expect(Date.parse(user.monitoring.lastRefreshedAt)).toBeGreaterThan(start.getTime() + 300 * DAY);
    expect(Date.parse(user.monitoring.nextRefreshAt)).toBeGreaterThan(Date.parse(target));
    const recent = await historyOf(story, 3);
    expect(recent.pagination.total).toBeGreaterThanOrEqual(2);
    expect(recent.pagination.total).toBeLessThanOrEqual(4);
    for (const point of recent.data) expect(Date.parse(point.date)).toBeGreaterThan(Date.parse(target) - 100 * DAY);

    // alert.created reaches the receiver one to one with the alerts, dated as they are; then sandbox.clock.ready.
    await waitFor(() => {
      const delivered = receiver.received.filter((d) => d.body.type === 'alert.created' && d.body.data.userId === story);
      expect(new Set(delivered.map((d) => d.body.id)).size).toBe(alerts.length);
    }, 20_000);
    const byAlert = new Map<string, string[]>();
    for (const d of receiver.received.filter((r) => r.body.type === 'alert.created' && r.body.data.userId === story)) {
      const alertId = (d.body.data.alert as { alertId: string }).alertId;
      byAlert.set(alertId, [...(byAlert.get(alertId) ?? []), d.body.createdAt]);
    }
    expect([...byAlert.keys()].sort()).toEqual(alerts.map((a) => a.alertId).sort());
    for (const alert of alerts) expect(byAlert.get(alert.alertId)).toEqual([alert.createdAt]);
    const ready = await waitFor(() => {
      const found = receiver.received.filter(
        (d) => d.body.type === 'sandbox.clock.ready' && d.body.data.clockId === clock.clockId,
      );
      expect(found).toHaveLength(1);
      return found[0];
    });
    expect(ready?.body.data).toEqual({ clockId: clock.clockId, frozenTime: target, pausedUsers: [] });

    // Writes are served again, at clock time.
    const afterwards = await post(`/v1/sandbox/users/${story}/alerts`, { type: 'new_inquiry' });
    expect(afterwards.status).toBe(201);
    expect(Date.parse(afterwards.body.data.createdAt)).toBe(Date.parse(target));
  });
});

describe('attaching users', () => {
  it('attaches all or none: unknown and other clients’ users are 404, users on another clock 400, naming the item', async () => {
    const mine = await enrolActiveUser(app, token, { ssn: '1002' });
    const alsoMine = await enrolActiveUser(app, token, { ssn: '1002' });
    const other = await app.createClient();
    const otherToken = await app.token(other);
    const theirs = (await app.request('POST', '/v1/users/enroll', { token: otherToken, body: enrollment() })).body.data.userId;
    const first = await createClock();
    const second = await createClock();
    expect((await post(`/v1/sandbox/clocks/${first.clockId}/users`, { userIds: [mine] })).status).toBe(200);

    const unknown = await post(`/v1/sandbox/clocks/${second.clockId}/users`, { userIds: [alsoMine, 'usr_doesNotExist0001'] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('userIds.1');
    const foreign = await post(`/v1/sandbox/clocks/${second.clockId}/users`, { userIds: [theirs] });
    expect(foreign.status).toBe(404);
    const taken = await post(`/v1/sandbox/clocks/${second.clockId}/users`, { userIds: [alsoMine, mine] });
    expect(taken.status).toBe(400);
    expect(taken.body.error.details).toEqual([{ field: 'userIds.1', message: expect.stringContaining('another clock') }]);
    expect((await get(`/v1/sandbox/clocks/${second.clockId}`)).body.data.userCount).toBe(0);

    const tooMany = await post(`/v1/sandbox/clocks/${second.clockId}/users`, {
      userIds: Array.from({ length: 101 }, (_, i) => `usr_many${String(i).padStart(12, '0')}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details[0].field).toBe('userIds');

    // Attaching the same user to the same clock again changes nothing.
    const repeat = await post(`/v1/sandbox/clocks/${first.clockId}/users`, { userIds: [mine] });
    expect(repeat.status).toBe(200);
    expect(repeat.body.data.userCount).toBe(1);
    // Another client's clock looks absent.
    expect((await app.request('GET', `/v1/sandbox/clocks/${first.clockId}`, { token: otherToken })).status).toBe(404);
  });

  it('refuses past 100 users a clock', async () => {
    const clock = await createClock();
    const userId = await enrolActiveUser(app, token, { ssn: '1002' });
    // 100 users already on it, written directly: enrolling them over HTTP only slows the test.
    await app.db.query(
      `insert into users (id, client_id, external_user_id, email, first_name, last_name, status, ssn_enc, date_of_birth_enc,
         address_enc, created_at, clock_id)
       select 'usr_full' || lpad(g::text, 12, '0'), client_id, 'full-' || g, email, first_name, last_name, status, ssn_enc,
         date_of_birth_enc, address_enc, created_at, $2
       from users, generate_series(1, 100) g where id = $1`,
      [userId, clock.clockId],
    );
    const res = await post(`/v1/sandbox/clocks/${clock.clockId}/users`, { userIds: [userId] });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'userIds.0', message: expect.stringContaining('100 users') }]);
  });
});

describe('creating and advancing', () => {
  it('refuses a start in the past, a move backwards and more than two years at once', async () => {
    const past = await post('/v1/sandbox/clocks', { frozenTime: new Date(Date.now() - 3_600_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.error.details[0].field).toBe('frozenTime');
    const clock = await createClock();
    const at = Date.parse(clock.frozenTime);
    for (const frozenTime of [clock.frozenTime, new Date(at - DAY).toISOString(), new Date(at + 800 * DAY).toISOString()]) {
      const res = await post(`/v1/sandbox/clocks/${clock.clockId}/advance`, { frozenTime });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].field).toBe('frozenTime');
    }
    const unknown = await post('/v1/sandbox/clocks/clk_doesNotExist0001/advance', { frozenTime: clock.frozenTime });
    expect(unknown.status).toBe(404);
    // An advance with no users still finishes and says so.
    expect(
      (await post(`/v1/sandbox/clocks/${clock.clockId}/advance`, { frozenTime: new Date(at + 730 * DAY).toISOString() })).status,
    ).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).body.data.status).toBe('ready');
  });

  it('lists clocks with a cursor', async () => {
    const made = [];
    for (const name of ['one', 'two', 'three']) {
      app.clock.advance(1000);
      made.push(await createClock({ name }));
    }
    const page = await get('/v1/sandbox/clocks?limit=2');
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data[0].clockId).toBe(made[2]?.clockId);
    const next = await get(`/v1/sandbox/clocks?limit=2&cursor=${encodeURIComponent(page.body.pagination.nextCursor)}`);
    expect(next.body.data[0].clockId).toBe(made[0]?.clockId);
  });
});

describe('deleting a clock', () => {
  it('deletes its users as DELETE of each would', async () => {
    const userId = await enrolActiveUser(app, token, { ssn: '1002' });
    const clock = await createClock();
    await post(`/v1/sandbox/clocks/${clock.clockId}/users`, { userIds: [userId] });
    expect((await app.request('DELETE', `/v1/sandbox/clocks/${clock.clockId}`, { token })).status).toBe(204);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).status).toBe(404);
    expect((await get(`/v1/users/${userId}`)).status).toBe(404);
    expect(await eventsOf(userId, 'user.deleted')).toBe(1);
    expect((await app.request('DELETE', `/v1/sandbox/clocks/${clock.clockId}`, { token })).status).toBe(404);
  });

  it('prunes clocks unused for 30 days, with their users', async () => {
    const { pruneUnusedClocks } = await import('../src/modules/clocks/service.ts');
    const userId = await enrolActiveUser(app, token, { ssn: '1002' });
    const clock = await createClock();
    await post(`/v1/sandbox/clocks/${clock.clockId}/users`, { userIds: [userId] });
    app.clock.advance(29 * DAY);
    token = await app.token(client);
    expect(await pruneUnusedClocks(app.ctx)).toBe(0);
    app.clock.advance(2 * DAY);
    token = await app.token(client);
    expect(await pruneUnusedClocks(app.ctx)).toBeGreaterThanOrEqual(1);
    expect((await get(`/v1/sandbox/clocks/${clock.clockId}`)).status).toBe(404);
    expect((await get(`/v1/users/${userId}`)).status).toBe(404);
  });
});

describe('sandbox clocks in production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({ config: productionEnv() });
  });
  afterAll(() => prod.close());

  it('do not exist', async () => {
    const live = await prod.createClient();
    const t = await prod.token(live);
    const res = await prod.request('POST', '/v1/sandbox/clocks', { token: t, body: {} });
    expect(res.status).toBe(404);
    expect((await prod.request('GET', '/v1/sandbox/clocks', { token: t })).status).toBe(404);
  });
});
