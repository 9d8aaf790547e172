import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { enrolActiveUser, partnerConsent } from './helpers/credit-users.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { productionWithBureau, startTestBureau, type TestBureau, verifyInProduction } from './helpers/test-bureau.ts';

const DAY = 86_400_000;
const START = '2026-11-23T10:00:00.000Z';

let bureau: TestBureau;
let production: TestApp;
let sandbox: TestApp;
beforeAll(async () => {
  bureau = await startTestBureau();
  production = await startTestApp({
    config: productionWithBureau(bureau, {
      BUREAU_RETRIES: '0',
      BUREAU_BREAKER_THRESHOLD: '2',
      // On the app's clock: open through the first retry a minute on, half-open by the second, five minutes later.
      BUREAU_BREAKER_HALF_OPEN_MS: String(2 * 60_000),
    }),
  });
  sandbox = await startTestApp();
  for (const app of [production, sandbox]) app.clock.set(START);
});
afterAll(async () => {
  await production.close();
  await sandbox.close();
  await bureau.close();
});

/** Access tokens that follow each app's clock (a period is 30 days; a token lives an hour). */
const tokenFor = (app: TestApp, client: TestClient) => app.token(client);

const alertsOf = async (app: TestApp, client: TestClient, userId: string) =>
  (await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token: await tokenFor(app, client) })).body.data as {
    type: string;
    title: string;
    createdAt: string;
  }[];
/** Read from the database: while the bureau is down the API's reads answer 503 (they pull the file too). */
const historyTotal = async (app: TestApp, userId: string) =>
  Number(
    (await app.db.query<{ n: number }>('select count(*)::int as n from score_history where user_id = $1', [userId])).rows[0]?.n,
  );

/** Where the user is in the monitoring schedule: the period due next, failed attempts at it, when it is tried next. */
const scheduleOf = async (app: TestApp, userId: string) => {
  const { rows } = await app.db.query<{ period: number; attempts: number; next: Date | null }>(
    `select monitoring_period as period, monitoring_attempts as attempts, monitoring_next_attempt_at as next
     from users where id = $1`,
    [userId],
  );
  const row = rows[0];
  return row && { period: row.period, attempts: row.attempts, nextAttemptAt: row.next && new Date(row.next).toISOString() };
};

describe('monitoring against the HTTP bureau (production)', () => {
  it('runs a year of cycles over BUREAU_URL and raises the same alerts as the sandbox', async () => {
    const identity = enrollment({ ssn: '1001', firstName: 'Prod', lastName: 'Story', dateOfBirth: '1981-06-02' });
    const liveClient = await production.createClient();
    const liveToken = await production.token(liveClient);
    const enrolled = await production.request('POST', '/v1/users/enroll', {
      token: liveToken,
      body: { ...identity, consent: partnerConsent(production) },
    });
    expect(enrolled.status).toBe(201);
    const liveUser = enrolled.body.data.userId as string;
    expect((await verifyInProduction(production, liveToken, liveUser)).result?.status).toBe(200);

    const sandboxClient = await sandbox.createClient();
    const sandboxUser = await enrolActiveUser(sandbox, await sandbox.token(sandboxClient), {
      ...identity,
      externalUserId: 'same-person',
    });

    // Period 0 was verification's own pull; twelve more periods follow.
    for (let period = 1; period <= 12; period++) {
      for (const app of [production, sandbox]) app.clock.advance(30 * DAY);
      const [live, local] = [await runMonitoringUntilIdle(production.ctx), await runMonitoringUntilIdle(sandbox.ctx)];
      expect(live.outcomes.refreshed).toBe(1);
      expect(local.outcomes.refreshed).toBe(1);
    }
    const liveAlerts = await alertsOf(production, liveClient, liveUser);
    const localAlerts = await alertsOf(sandbox, sandboxClient, sandboxUser);
    const shape = (alerts: { type: string; title: string; createdAt: string }[]) =>
      alerts.map((a) => `${a.createdAt} ${a.type} ${a.title}`).sort();
    expect(shape(liveAlerts)).toEqual(shape(localAlerts));
    expect(new Set(liveAlerts.map((a) => a.type)).size).toBe(8);
    expect(bureau.calls.filter((c) => c.path === '/v1/credit-file').length).toBeGreaterThanOrEqual(13);
  });

  it('uses the file verification pulled as period 0: the first cycle pulls nothing more', async () => {
    const client = await production.createClient();
    const token = await production.token(client);
    const enrolled = await production.request('POST', '/v1/users/enroll', {
      token,
      body: { ...enrollment({ ssn: '1003' }), consent: partnerConsent(production) },
    });
    const userId = enrolled.body.data.userId as string;
    const creditPulls = () => bureau.calls.filter((c) => c.path === '/v1/credit-file').length;
    const before = creditPulls();
    const verifiedAt = production.clock.now();
    expect((await verifyInProduction(production, token, userId)).result?.status).toBe(200);
    expect(creditPulls()).toBe(before + 1);
    // The first pull's alert (story 1003: a fraud flag on file) is there already, from that one pull.
    expect((await alertsOf(production, client, userId)).map((a) => a.type)).toContain('fraud_alert');
    await runMonitoringUntilIdle(production.ctx);
    expect(creditPulls()).toBe(before + 1);
    expect(await scheduleOf(production, userId)).toMatchObject({ period: 1, attempts: 0 });
    const user = await production.request('GET', `/v1/users/${userId}`, { token: await production.token(client) });
    expect(user.body.data.monitoring).toMatchObject({
      lastRefreshedAt: verifiedAt.toISOString(),
      nextRefreshAt: new Date(verifiedAt.getTime() + 30 * DAY).toISOString(),
    });
    production.clock.advance(30 * DAY);
    await runMonitoringUntilIdle(production.ctx);
    expect(await scheduleOf(production, userId)).toMatchObject({ period: 2 });
    expect(await historyTotal(production, userId)).toBe(25);
  });

  it('skips a period the bureau refuses (no file) after the whole retry schedule, and refreshes the next one', async () => {
    const client = await production.createClient();
    const token = await production.token(client);
    const enrolled = await production.request('POST', '/v1/users/enroll', {
      token,
      body: { ...enrollment({ ssn: '1002' }), consent: partnerConsent(production) },
    });
    const userId = enrolled.body.data.userId as string;
    expect((await verifyInProduction(production, token, userId)).result?.status).toBe(200);
    const period1Due = production.clock.now().getTime() + 30 * DAY;
    const before = await historyTotal(production, userId);

    bureau.behave({ kind: 'refuse', status: 404 });
    try {
      production.clock.set(new Date(period1Due));
      // The retry schedule (1m, 5m, 30m, 2h, 6h): each refusal keeps the period and waits its step before the next try.
      let attempts = 0;
      for (const wait of [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000]) {
        await runMonitoringUntilIdle(production.ctx);
        attempts += 1;
        expect(await scheduleOf(production, userId)).toEqual({
          period: 1,
          attempts,
          nextAttemptAt: new Date(production.clock.now().getTime() + wait).toISOString(),
        });
        production.clock.advance(wait);
      }
      // The sixth refusal, past the schedule: the period is given up and the next one is due as usual, not in 6 h.
      await runMonitoringUntilIdle(production.ctx);
      expect(await scheduleOf(production, userId)).toEqual({
        period: 2,
        attempts: 0,
        nextAttemptAt: new Date(period1Due + 30 * DAY).toISOString(),
      });
      const user = await production.request('GET', `/v1/users/${userId}`, { token: await production.token(client) });
      expect(user.body.data.monitoring.nextRefreshAt).toBe(new Date(period1Due + 30 * DAY).toISOString());
      expect(await historyTotal(production, userId)).toBe(before);
    } finally {
      bureau.behave({ kind: 'sandbox' });
    }
    production.clock.set(new Date(period1Due + 30 * DAY));
    await runMonitoringUntilIdle(production.ctx);
    expect(await scheduleOf(production, userId)).toMatchObject({ period: 3, attempts: 0 });
    expect(await historyTotal(production, userId)).toBe(before + 1);
  });

  it('retries a period the bureau failed, with the breaker open, and completes it once after recovery', async () => {
    const client = await production.createClient();
    const token = await production.token(client);
    const enrolled = await production.request('POST', '/v1/users/enroll', {
      token,
      body: { ...enrollment({ ssn: '1001' }), consent: partnerConsent(production) },
    });
    const userId = enrolled.body.data.userId as string;
    expect((await verifyInProduction(production, token, userId)).result?.status).toBe(200);
    await runMonitoringUntilIdle(production.ctx);
    const before = await historyTotal(production, userId);

    bureau.behave({ kind: 'fail' });
    production.clock.advance(30 * DAY);
    const failed = await runMonitoringUntilIdle(production.ctx);
    expect(failed.outcomes.failed).toBeGreaterThanOrEqual(1);
    expect(failed.outcomes.refreshed).toBe(0);
    // Retried on the schedule (first retry after a minute); with the breaker open the bureau is not even called.
    const callsWhileOpen = bureau.calls.length;
    production.clock.advance(60_000);
    expect((await runMonitoringUntilIdle(production.ctx)).outcomes.failed).toBeGreaterThanOrEqual(1);
    expect(bureau.calls.length).toBe(callsWhileOpen);
    expect(await historyTotal(production, userId)).toBe(before);

    bureau.behave({ kind: 'sandbox' });
    production.clock.advance(5 * 60_000);
    expect((await runMonitoringUntilIdle(production.ctx)).outcomes.refreshed).toBeGreaterThanOrEqual(1);
    expect(await historyTotal(production, userId)).toBe(before + 1);
    // Completed once: nothing is due again until the next period.
    production.clock.advance(60 * 60_000);
    expect((await runMonitoringUntilIdle(production.ctx)).claimed).toBe(0);
    const user = await production.request('GET', `/v1/users/${userId}`, { token: await production.token(client) });
    expect(user.body.data.monitoring.status).toBe('active');
  });
});
