import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUREAU_PATHS } from '../src/bureau/http/contract.ts';
import { startBureauServer } from '../src/bureau/http/server.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { SandboxTriggerLog } from '../src/bureau/sandbox/trigger-log.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { readTriggerFeedUntilIdle } from '../src/modules/monitoring/trigger-feed.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { productionWithBureau, verifyInProduction } from './helpers/test-bureau.ts';

const DAY = 86_400_000;

interface Alert {
  alertId: string;
  type: string;
  createdAt: string;
  data: Record<string, unknown>;
}

/** The day the change an alert is about reached the file, as the alert itself names it. */
const changeDayOf = (alert: Alert): string | undefined => {
  const { inquiryDate, openedDate, closedDate, reportedDate } = alert.data as Record<string, string | undefined>;
  return inquiryDate ?? openedDate ?? closedDate ?? reportedDate;
};

describe('sandbox triggers on a test clock', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp({ config: { MONITORING_INTERVAL: '' } });
    token = await app.token(await app.createClient());
  });
  afterAll(() => app.close());

  it('alerts each change of a monthly customer on the day it reached the file, not at the next period', async () => {
    const userId = await enrolActiveUser(app, token, { ssn: '1001', firstName: 'Dana', lastName: 'Daily' });
    await runMonitoringUntilIdle(app.ctx);
    const before = new Set(
      ((await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token })).body.data as Alert[]).map((a) => a.alertId),
    );
    const clock = (await app.request('POST', '/v1/sandbox/clocks', { token, body: {} })).body.data as {
      clockId: string;
      frozenTime: string;
    };
    expect(
      (await app.request('POST', `/v1/sandbox/clocks/${clock.clockId}/users`, { token, body: { userIds: [userId] } })).status,
    ).toBe(200);
    const target = new Date(Date.parse(clock.frozenTime) + 200 * DAY).toISOString();
    expect(
      (await app.request('POST', `/v1/sandbox/clocks/${clock.clockId}/advance`, { token, body: { frozenTime: target } })).status,
    ).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);

    const raised = ((await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token })).body.data as Alert[]).filter(
      (a) => !before.has(a.alertId),
    );
    const dated = raised.filter((a) => changeDayOf(a) !== undefined);
    // Story 1001 changes in five of every six months: an inquiry, a new account, a late payment, an address, a flag, a closure.
    expect(new Set(dated.map((a) => a.type)).size).toBeGreaterThanOrEqual(5);
    for (const alert of dated)
      expect(alert.createdAt.slice(0, 10), `${alert.type} ${JSON.stringify(alert.data)}`).toBe(changeDayOf(alert));
    // The period pulls fall on the verification day's date; most changes fall on other days.
    const periodDay = new Date(clock.frozenTime).getUTCDate();
    expect(dated.filter((a) => new Date(a.createdAt).getUTCDate() !== periodDay).length).toBeGreaterThan(0);
  });
});

describe('the bureau trigger feed in production', () => {
  let app: TestApp;
  let client: TestClient;
  let log: SandboxTriggerLog;
  const pullsOf = new Map<string, number>();
  let closeBureau: () => Promise<void>;
  const apiKey = 'bk_triggers_test_key_0123456789';

  beforeAll(async () => {
    let now = () => new Date(0);
    log = new SandboxTriggerLog(() => now());
    // Counts the credit files the bureau sells, per customer (the reference a pull names).
    class CountingBureau extends SandboxBureau {
      override pullCreditFile(...args: Parameters<SandboxBureau['pullCreditFile']>) {
        pullsOf.set(args[0].userId, (pullsOf.get(args[0].userId) ?? 0) + 1);
        return super.pullCreditFile(...args);
      }
    }
    const server = await startBureauServer({ provider: new CountingBureau({ triggerLog: log }), apiKey });
    closeBureau = server.close;
    app = await startTestApp({ config: productionWithBureau({ url: server.url, apiKey }, { MONITORING_INTERVAL: '' }) });
    now = () => app.clock.now();
    client = await app.createClient();
  });
  afterAll(async () => {
    await app.close();
    await closeBureau();
  });

  const enrolMonitored = async (ssn: string) => {
    const token = await app.currentToken(client);
    const userId = await enrolUser(app, token, { ssn });
    const { result } = await verifyInProduction(app, token, userId);
    expect(result?.body.data.verified).toBe(true);
    await runMonitoringUntilIdle(app.ctx);
    return userId;
  };
  const monitoringOf = async (userId: string) =>
    (await app.request('GET', `/v1/users/${userId}`, { token: await app.currentToken(client) })).body.data.monitoring as {
      nextRefreshAt: string;
      lastRefreshedAt: string;
    };
  const pullsDuring = async (userId: string, work: () => Promise<unknown>) => {
    const start = pullsOf.get(userId) ?? 0;
    await work();
    return (pullsOf.get(userId) ?? 0) - start;
  };
  const readAndRun = async () => {
    const feed = await readTriggerFeedUntilIdle(app.ctx);
    await runMonitoringUntilIdle(app.ctx);
    return feed;
  };

  it('pulls a file the bureau reports changed the same day, once, and leaves the period where it was', async () => {
    const userId = await enrolMonitored('1001');
    expect(log.monitoredCount).toBeGreaterThan(0);
    const period = await monitoringOf(userId);
    // Day by day until the bureau reports a change: each report buys one pull that day, dated that day.
    for (let day = 1; day <= 40; day++) {
      app.clock.advance(DAY);
      const { scheduled } = await readTriggerFeedUntilIdle(app.ctx);
      const periodDue = app.clock.now().getTime() >= Date.parse(period.nextRefreshAt);
      const pulls = await pullsDuring(userId, () => runMonitoringUntilIdle(app.ctx));
      if (periodDue) break;
      expect(pulls, `day ${day}`).toBe(scheduled > 0 ? 1 : 0);
      if (scheduled === 0) continue;
      const alerts = (await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token: await app.currentToken(client) }))
        .body.data as Alert[];
      const today = app.clock.now().toISOString().slice(0, 10);
      const fresh = alerts.filter((a) => a.createdAt.slice(0, 10) === today);
      expect(fresh.length).toBeGreaterThan(0);
      for (const alert of fresh.filter((a) => changeDayOf(a))) expect(changeDayOf(alert)).toBe(today);
      expect((await monitoringOf(userId)).nextRefreshAt).toBe(period.nextRefreshAt);
      return;
    }
    throw new Error('story 1001 reported no change before its next period');
  });

  it('buys one file when a trigger and a period meet, and none for the same trigger read again', async () => {
    const userId = await enrolMonitored('1002');
    const period = await monitoringOf(userId);
    app.clock.set(new Date(period.nextRefreshAt));
    const trigger = {
      id: `trg_meet_${userId}`,
      reference: userId,
      types: ['inquiry' as const],
      occurredOn: app.clock.now().toISOString().slice(0, 10),
    };
    log.inject(trigger);
    let feed = { read: 0, scheduled: 0, stopped: 0 };
    expect(await pullsDuring(userId, async () => (feed = await readAndRun()))).toBe(1);
    expect(feed.scheduled).toBeGreaterThanOrEqual(1);
    const after = await monitoringOf(userId);
    expect(Date.parse(after.nextRefreshAt)).toBeGreaterThan(Date.parse(period.nextRefreshAt));

    // The bureau sends the same trigger again: it is known, nothing is scheduled or bought.
    log.inject(trigger);
    expect(await pullsDuring(userId, async () => (feed = await readAndRun()))).toBe(0);
    expect(feed).toMatchObject({ read: 1, scheduled: 0 });
    const settled = await app.db.query<{ settled_by: string }>('select settled_by from bureau_triggers where id = $1', [
      trigger.id,
    ]);
    expect(settled.rows).toHaveLength(1);
    expect(settled.rows[0]?.settled_by).toContain(':period:');
  });

  it('schedules nothing for a deleted customer or one who withdrew consent, and stops their monitoring', async () => {
    const deleted = await enrolMonitored('1002');
    const withdrawn = await enrolMonitored('1002');
    const token = await app.currentToken(client);
    expect((await app.request('DELETE', `/v1/users/${deleted}`, { token })).status).toBe(200);
    expect((await app.request('POST', `/v1/users/${withdrawn}/consent/withdraw`, { token, body: {} })).status).toBe(200);
    const monitored = log.monitoredCount;
    const today = app.clock.now().toISOString().slice(0, 10);
    for (const userId of [deleted, withdrawn]) {
      log.inject({ id: `trg_gone_${userId}`, reference: userId, types: ['address_change'], occurredOn: today });
    }
    const feed = await readTriggerFeedUntilIdle(app.ctx);
    expect(feed).toEqual({ read: 2, scheduled: 0, stopped: 2 });
    for (const userId of [deleted, withdrawn]) expect(await pullsDuring(userId, () => runMonitoringUntilIdle(app.ctx))).toBe(0);
    expect(log.monitoredCount).toBe(monitored - 2);
  });

  it('answers a cursor it never gave with a 400', async () => {
    const res = await fetch(`${(app.ctx.config.BUREAU_URL as string).replace(/\/$/, '')}${BUREAU_PATHS.triggers}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ after: 'not-a-cursor' }),
    });
    expect(res.status).toBe(400);
  });
});
