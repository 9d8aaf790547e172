import { ALERT_TYPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { runMonitoringBatch, runMonitoringUntilIdle, startMonitoring } from '../src/modules/monitoring/scheduler.ts';
import { claimDueUsers, refreshClaimedUser } from '../src/modules/monitoring/service.ts';
import { type Dispatcher, startDispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { type Receiver, startReceiver, waitFor } from './helpers/webhook-receiver.ts';

const DAY = 86_400_000;
const HOOK_SECRET = 'whsec_monitoring_0123456789abcdef';

let app: TestApp;
let client: TestClient;
/** An access token valid at the test clock's now (the clock jumps months; a token lives an hour). */
const tok = () => app.currentToken(client);
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile } });
  app.clock.set('2026-11-23T10:00:00.000Z');
  client = await app.createClient();
  const hook = await app.request('POST', '/v1/webhooks', {
    token: await tok(),
    body: { url: `${receiver.url}/monitoring`, events: ['alert.created', 'score.updated', 'score.changed'], secret: HOOK_SECRET },
  });
  expect(hook.status).toBe(201);
  dispatcher = startDispatcher(app.ctx);
});
afterAll(async () => {
  await dispatcher.stop();
  await app.close();
  await receiver.close();
});

const getUser = async (userId: string) => (await app.request('GET', `/v1/users/${userId}`, { token: await tok() })).body.data;
const historyOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}/credit-score/history?months=84&limit=100`, { token: await tok() })).body;
const alertsOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}/alerts?limit=100`, { token: await tok() })).body.data as {
    alertId: string;
    type: string;
    createdAt: string;
  }[];
const count = async (sql: string, params: unknown[]) => Number((await app.db.query<{ n: number }>(sql, params)).rows[0]?.n);
const eventsOf = (userId: string, type: string) =>
  count(`select count(*)::int as n from outbox_events where type = $1 and data->>'userId' = $2`, [type, userId]);

/** One monitoring period later: the clock moves by MONITORING_INTERVAL and the workers catch up. */
const nextPeriod = async () => {
  app.clock.advance(30 * DAY);
  return runMonitoringUntilIdle(app.ctx);
};

describe('the monitoring schedule', () => {
  it('pulls a file at verification, then once per interval, and shows it on the user', async () => {
    const pending = await enrolUser(app, await tok());
    expect((await getUser(pending)).monitoring).toEqual({
      status: 'paused',
      pausedReason: 'not_verified',
      lastRefreshedAt: null,
      nextRefreshAt: null,
      refreshAvailableAt: null,
    });

    const verifiedAt = app.clock.now();
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1002' });
    // Verification's pull is the first refresh (period 0): the next one is due an interval later, nothing now.
    expect((await getUser(userId)).monitoring).toMatchObject({
      status: 'active',
      lastRefreshedAt: verifiedAt.toISOString(),
      nextRefreshAt: new Date(verifiedAt.getTime() + 30 * DAY).toISOString(),
    });
    const claimedBefore = await count('select count(*)::int as n from users where id = $1 and monitoring_period = 1', [userId]);
    expect(claimedBefore).toBe(1);

    const first = await runMonitoringUntilIdle(app.ctx);
    expect(first.outcomes.refreshed).toBe(0);
    const afterFirst = await getUser(userId);
    expect(afterFirst.monitoring).toMatchObject({
      status: 'active',
      lastRefreshedAt: verifiedAt.toISOString(),
      nextRefreshAt: new Date(verifiedAt.getTime() + 30 * DAY).toISOString(),
    });
    expect((await historyOf(userId)).pagination.total).toBe(24);
    expect(await eventsOf(userId, 'score.updated')).toBe(1);

    // Nothing is due until the interval has passed.
    app.clock.advance(29 * DAY);
    expect((await runMonitoringUntilIdle(app.ctx)).claimed).toBe(0);
    app.clock.advance(1 * DAY);
    await runMonitoringUntilIdle(app.ctx);
    expect((await historyOf(userId)).pagination.total).toBe(25);
    expect(await eventsOf(userId, 'score.updated')).toBe(2);
    const listed = await app.request('GET', `/v1/users?externalUserId=${afterFirst.externalUserId}`, { token: await tok() });
    expect(listed.body.data[0].monitoring.lastRefreshedAt).toBe(app.clock.now().toISOString());
  });

  it('covers periods missed while workers were down with one pull, then keeps to the verification-day cycle', async () => {
    const verifiedAt = app.clock.now();
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1001' });
    await runMonitoringUntilIdle(app.ctx);
    app.clock.advance(95 * DAY);
    await runMonitoringUntilIdle(app.ctx);
    expect(
      await count(`select count(*)::int as n from score_history where user_id = $1 and source = 'monitoring'`, [userId]),
    ).toBe(1);
    expect((await getUser(userId)).monitoring.nextRefreshAt).toBe(new Date(verifiedAt.getTime() + 120 * DAY).toISOString());
  });

  it('raises every alert type from real file differences for story 1001, none for 1002, each delivered once', async () => {
    const story = await enrolActiveUser(app, await tok(), { ssn: '1001', firstName: 'Story', lastName: 'Teller' });
    const quiet = await enrolActiveUser(app, await tok(), { ssn: '1002', firstName: 'Quiet', lastName: 'Keeper' });
    await runMonitoringUntilIdle(app.ctx);
    const historyBefore = (await historyOf(story)).pagination.total;
    for (let month = 1; month <= 12; month++) {
      await nextPeriod();
      // One history point per period, for the quiet file too.
      expect((await historyOf(story)).pagination.total).toBe(historyBefore + month);
    }
    const alerts = await alertsOf(story);
    expect(new Set(alerts.map((a) => a.type))).toEqual(new Set(ALERT_TYPES));
    expect(await alertsOf(quiet)).toEqual([]);
    expect(await eventsOf(quiet, 'alert.created')).toBe(0);
    expect(await eventsOf(quiet, 'score.changed')).toBe(0);

    // Every alert reaches the partner's HTTPS receiver as alert.created, one to one.
    await waitFor(() => {
      const delivered = receiver.received.filter((d) => d.body.type === 'alert.created' && d.body.data.userId === story);
      expect(new Set(delivered.map((d) => d.body.id)).size).toBe(alerts.length);
    }, 20_000);
    // Delivery is at least once (a retry may repeat an event; its id says so): one event per alert, one alert per event.
    const delivered = receiver.received.filter((d) => d.body.type === 'alert.created' && d.body.data.userId === story);
    const eventsByAlert = new Map<string, Set<string>>();
    for (const d of delivered) {
      const alertId = (d.body.data.alert as { alertId: string }).alertId;
      eventsByAlert.set(alertId, (eventsByAlert.get(alertId) ?? new Set()).add(d.body.id));
    }
    expect([...eventsByAlert.keys()].sort()).toEqual(alerts.map((a) => a.alertId).sort());
    expect([...eventsByAlert.values()].every((ids) => ids.size === 1)).toBe(true);
    // Alerts are dated when monitoring found them, not all at once.
    expect(new Set(alerts.map((a) => a.createdAt.slice(0, 7))).size).toBeGreaterThan(3);
  });

  it('raises a fraud flag on file at the first pull (story 1003), and nothing of the rest of the file', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1003', firstName: 'Flagged', lastName: 'File' });
    await runMonitoringUntilIdle(app.ctx);
    const alerts = await alertsOf(userId);
    expect(alerts.map((a) => a.type)).toContain('fraud_alert');
    // The first pull raises only what a customer must see at once: recent inquiries and flags.
    expect(alerts.every((a) => a.type === 'fraud_alert' || a.type === 'new_inquiry')).toBe(true);
  });

  it('raises no subject twice when a group commits it again, and one whose key is gone once more', async () => {
    const flagged = [
      await enrolActiveUser(app, await tok(), { ssn: '1003', firstName: 'Flagged', lastName: 'Once' }),
      await enrolActiveUser(app, await tok(), { ssn: '1003', firstName: 'Flagged', lastName: 'Twice' }),
    ];
    const forgotten = await enrolActiveUser(app, await tok(), { ssn: '1003', firstName: 'Flagged', lastName: 'Anew' });
    await runMonitoringUntilIdle(app.ctx);
    // The flags on file: the sandbox's monthly events may add inquiries meanwhile, which are news.
    const flagIds = (userId: string) =>
      alertsOf(userId).then((alerts) => alerts.filter((a) => a.type === 'fraud_alert').map((a) => a.alertId));
    const before = await Promise.all(flagged.map(flagIds));
    expect(before.map((ids) => ids.length)).toEqual([1, 1]);
    const forgottenBefore = (await alertsOf(forgotten)).filter((a) => a.type === 'fraud_alert');
    expect(forgottenBefore).toHaveLength(1);
    // Lost snapshots make the next pull a first comparison again: the flag is found anew, and only its key says it was
    // raised already. The third customer's keys are gone too (as retention drops them), so its flag is news again.
    const all = [...flagged, forgotten];
    await app.db.query('delete from credit_snapshots where user_id = any($1::text[])', [all]);
    await app.db.query('delete from monitoring_alert_keys where user_id = $1', [forgotten]);
    const report = await nextPeriod();
    expect(report.outcomes.failed).toBe(0);
    // Through the group commit itself, not its one-by-one fallback.
    expect(app.logs.join('\n')).not.toContain('monitoring group commit failed');
    expect(await Promise.all(flagged.map(flagIds))).toEqual(before);
    expect((await alertsOf(forgotten)).filter((a) => a.type === 'fraud_alert')).toHaveLength(2);
  });

  it('commits each period once when workers race, and skips a user deleted mid-run', async () => {
    const users = [];
    for (let i = 0; i < 6; i++) users.push(await enrolActiveUser(app, await tok(), { ssn: '1001' }));
    const doomed = await enrolActiveUser(app, await tok(), { ssn: '1001' });
    await runMonitoringUntilIdle(app.ctx);
    app.clock.advance(30 * DAY);
    // Two workers' batches at once, and a claimed user deleted before its refresh commits.
    const racing = Promise.all([runMonitoringBatch(app.ctx), runMonitoringBatch(app.ctx), runMonitoringUntilIdle(app.ctx)]);
    expect((await app.request('DELETE', `/v1/users/${doomed}`, { token: await tok() })).status).toBe(200);
    await racing;
    // A lease that expires (a worker that died holding users) hands them to another worker, which finds them done.
    app.clock.advance(10 * 60_000);
    await runMonitoringUntilIdle(app.ctx);
    for (const userId of users) {
      expect(
        await count(`select count(*)::int as n from score_history where user_id = $1 and source = 'monitoring'`, [userId]),
      ).toBe(1);
      expect(await eventsOf(userId, 'score.updated')).toBe(2);
      const alerts = await count('select count(*)::int as n from alerts where user_id = $1', [userId]);
      expect(await eventsOf(userId, 'alert.created')).toBe(alerts);
      // Every alert but score_change has its subject's key; none was raised twice.
      const keys = await count('select count(*)::int as n from monitoring_alert_keys where user_id = $1', [userId]);
      const scoreAlerts = await count(`select count(*)::int as n from alerts where user_id = $1 and type = 'score_change'`, [
        userId,
      ]);
      expect(alerts).toBe(keys + scoreAlerts);
    }
    const doomedRow = await app.db.query<{ monitoring_period: number; monitoring_next_attempt_at: Date | null }>(
      'select monitoring_period, monitoring_next_attempt_at from users where id = $1',
      [doomed],
    );
    expect(doomedRow.rows[0]?.monitoring_period).toBeLessThanOrEqual(2);
    expect(
      await count(`select count(*)::int as n from score_history where user_id = $1 and source = 'monitoring'`, [doomed]),
    ).toBeLessThanOrEqual(1);
  });

  it('starts the next batch while one finishes, within the worker’s slots, each period pulled once', async () => {
    const users: string[] = [];
    for (let i = 0; i < 8; i++) users.push(await enrolActiveUser(app, await tok(), { ssn: '1002' }));
    await runMonitoringUntilIdle(app.ctx);
    app.clock.advance(30 * DAY);
    const bureau = app.ctx.bureau as BureauProvider;
    let inFlight = 0;
    let mostInFlight = 0;
    let claimsWhilePulling = 0;
    const slowBureau: BureauProvider = {
      ...bureau,
      pullCreditFile: async (subject, asOf, options) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 25));
          return await bureau.pullCreditFile(subject, asOf, options);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const db = new Proxy(app.ctx.db, {
      get(target, prop) {
        if (prop === 'query') {
          return (sql: string, params?: unknown[]) => {
            if (sql.includes('for update skip locked') && inFlight > 0) claimsWhilePulling += 1;
            return target.query(sql, params);
          };
        }
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const config = { ...app.ctx.config, MONITORING_BATCH_SIZE: 3, MONITORING_CONCURRENCY: 2, MONITORING_BATCHES_IN_FLIGHT: 2 };
    const worker = startMonitoring({ ...app.ctx, config, db, bureau: slowBureau });
    const monitoringRows = (userId: string) =>
      count(`select count(*)::int as n from score_history where user_id = $1 and source = 'monitoring'`, [userId]);
    try {
      await waitFor(async () => {
        for (const userId of users) expect(await monitoringRows(userId)).toBe(1);
      }, 20_000);
    } finally {
      await worker.stop();
    }
    // Two batches in flight share two slots (never four), and a batch is claimed while the one before still pulls.
    expect(mostInFlight).toBe(2);
    expect(claimsWhilePulling).toBeGreaterThan(0);
    for (const userId of users) expect(await monitoringRows(userId)).toBe(1);
  });

  it('skips a user deleted after a worker claimed it, without writing anything for the period', async () => {
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1001' });
    await runMonitoringUntilIdle(app.ctx);
    app.clock.advance(30 * DAY);
    const now = app.clock.now();
    const claimed = await claimDueUsers(app.db, now, new Date(now.getTime() + 60_000), 10_000);
    const mine = claimed.find((u) => u.id === userId);
    expect(mine).toBeDefined();
    expect((await app.request('DELETE', `/v1/users/${userId}`, { token: await tok() })).status).toBe(200);
    expect(await refreshClaimedUser(app.ctx, mine as (typeof claimed)[number])).toBe('skipped');
    expect(
      await count(`select count(*)::int as n from score_history where user_id = $1 and source = 'monitoring'`, [userId]),
    ).toBe(0);
    expect(await eventsOf(userId, 'score.updated')).toBe(1);
    // Off the schedule for good: no worker claims it again.
    app.clock.advance(365 * DAY);
    const later = await claimDueUsers(app.db, app.clock.now(), app.clock.now(), 10_000);
    expect(later.map((u) => u.id)).not.toContain(userId);
    // The other claimed users go back to being due (their lease simply runs out).
    await runMonitoringUntilIdle(app.ctx);
  });

  it('applies a changed MONITORING_INTERVAL from each user’s next period, counted from the last due date', async () => {
    await runMonitoringUntilIdle(app.ctx);
    const verifiedAt = app.clock.now().getTime();
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1002' });
    const nextRefreshAt = async () => (await getUser(userId)).monitoring.nextRefreshAt;
    const points = () => count('select count(*)::int as n from score_history where user_id = $1', [userId]);
    const before = await points();
    // As a restart with MONITORING_INTERVAL=7d would: the running instance's setting changes.
    const config = app.ctx.config as { MONITORING_INTERVAL: number };
    const was = config.MONITORING_INTERVAL;
    config.MONITORING_INTERVAL = 7 * DAY;
    try {
      // The period already scheduled keeps its date: nothing is pulled early.
      app.clock.advance(29 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      expect(await points()).toBe(before);
      expect(await nextRefreshAt()).toBe(new Date(verifiedAt + 30 * DAY).toISOString());
      // It runs on its date; the new interval counts from there (not from verification: that would be day 35).
      app.clock.advance(1 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      expect(await points()).toBe(before + 1);
      expect(await nextRefreshAt()).toBe(new Date(verifiedAt + 37 * DAY).toISOString());
      app.clock.advance(7 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      expect(await points()).toBe(before + 2);
      expect(await nextRefreshAt()).toBe(new Date(verifiedAt + 44 * DAY).toISOString());
    } finally {
      config.MONITORING_INTERVAL = was;
    }
  });

  it('skips users without current consent, counting no attempt, and refreshes them at the next look once it is back', async () => {
    await runMonitoringUntilIdle(app.ctx);
    const userId = await enrolActiveUser(app, await tok(), { ssn: '1002' });
    const points = () => count('select count(*)::int as n from score_history where user_id = $1', [userId]);
    const scheduleOf = async () =>
      (
        await app.db.query<{ period: number; attempts: number; next: Date }>(
          `select monitoring_period as period, monitoring_attempts as attempts, monitoring_next_attempt_at as next
           from users where id = $1`,
          [userId],
        )
      ).rows[0];
    const before = await points();
    const withdrawn = await app.request('POST', `/v1/users/${userId}/consent/withdraw`, { token: await tok() });
    expect(withdrawn.status).toBe(200);

    app.clock.advance(30 * DAY);
    await runMonitoringUntilIdle(app.ctx);
    // Not pulled, no attempt counted, looked at again a day later (not at every claim).
    expect(await points()).toBe(before);
    expect(await scheduleOf()).toMatchObject({ period: 1, attempts: 0 });
    expect(new Date((await scheduleOf())?.next as Date).getTime()).toBe(app.clock.now().getTime() + DAY);
    const granted = await app.request('POST', `/v1/users/${userId}/consent`, {
      token: await tok(),
      body: { termsVersion: app.ctx.config.CONSENT_TERMS_VERSION, method: 'partner_attested' },
    });
    expect(granted.status).toBe(201);
    app.clock.advance(DAY);
    await runMonitoringUntilIdle(app.ctx);
    expect(await points()).toBe(before + 1);
    expect(await scheduleOf()).toMatchObject({ period: 2, attempts: 0 });

    // Consent that ends between the claim and the pull: a CONSENT_REQUIRED refusal is a skip, not a failed attempt.
    app.clock.advance(30 * DAY);
    const now = app.clock.now();
    await app.db.query('update users set consent_valid_until = $2 where id = $1', [userId, new Date(now.getTime() + 1000)]);
    const claimed = (await claimDueUsers(app.db, now, new Date(now.getTime() + 60_000), 10_000)).find((u) => u.id === userId);
    expect(claimed?.consented).toBe(true);
    app.clock.advance(2000);
    expect(await refreshClaimedUser(app.ctx, claimed as NonNullable<typeof claimed>)).toBe('skipped');
    expect(await points()).toBe(before + 1);
    expect(await scheduleOf()).toMatchObject({ period: 2, attempts: 0 });
    await runMonitoringUntilIdle(app.ctx);
  });
});
