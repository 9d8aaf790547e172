import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { type ClaimedUser, CONSENT_RECHECK_MS, claimDueUsers, refreshClaimedUser } from '../src/modules/monitoring/service.ts';
import { countingBureau } from './helpers/counting-bureau.ts';
import { enrolActiveUser, enrolUser, partnerConsent, verifyUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const DAY = 86_400_000;

let app: TestApp;
let client: TestClient;
const hooked = countingBureau();
const tok = () => app.currentToken(client);

beforeAll(async () => {
  app = await startTestApp({ bureau: hooked.bureau });
  client = await app.createClient();
});
afterAll(() => app.close());

const count = async (sql: string, params: unknown[]) => Number((await app.db.query<{ n: number }>(sql, params)).rows[0]?.n);
const historyPoints = (userId: string) => count('select count(*)::int as n from score_history where user_id = $1', [userId]);
/** Every event about the user other than consent's own (score.updated, score.changed, alerts). */
const scoreAndAlertEvents = (userId: string) =>
  count(`select count(*)::int as n from outbox_events where data->>'userId' = $1 and type not like 'consent.%'`, [userId]);
const withdrawnEvents = (userId: string) =>
  count(`select count(*)::int as n from outbox_events where data->>'userId' = $1 and type = 'consent.withdrawn'`, [userId]);
const scheduleOf = async (userId: string) =>
  (
    await app.db.query<{ monitoring_period: number; monitoring_attempts: number; monitoring_next_attempt_at: Date }>(
      'select monitoring_period, monitoring_attempts, monitoring_next_attempt_at from users where id = $1',
      [userId],
    )
  ).rows[0];
const withdraw = async (userId: string) => {
  const res = await app.request('POST', `/v1/users/${userId}/consent/withdraw`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** A verified user whose next monitoring period is due now, claimed by a worker the way the job claims it. */
const claimedDueUser = async () => {
  const userId = await enrolActiveUser(app, await tok());
  await runMonitoringUntilIdle(app.ctx);
  app.clock.advance(31 * DAY);
  const now = app.clock.now();
  const claimed = await claimDueUsers(app.db, now, new Date(now.getTime() + 60_000), 10_000);
  const mine = claimed.find((u) => u.id === userId) as ClaimedUser;
  expect(mine).toMatchObject({ consented: true });
  return { userId, claimed: mine, now };
};

describe('a consent withdrawal racing a pull: monitoring', () => {
  it('while the pull is in flight: the pulled file is dropped, nothing is recorded after consent.withdrawn, the user is deferred', async () => {
    const { userId, claimed, now } = await claimedDueUser();
    const before = { history: await historyPoints(userId), events: await scoreAndAlertEvents(userId) };
    const period = claimed.monitoring_period;
    hooked.onNextCreditPull(async (pulledFor) => {
      expect(pulledFor).toBe(userId);
      await withdraw(userId);
    });
    const pullsBefore = hooked.creditPullsOf(userId);

    expect(await refreshClaimedUser(app.ctx, claimed)).toBe('skipped');

    expect(hooked.creditPullsOf(userId)).toBe(pullsBefore + 1);
    expect(await withdrawnEvents(userId)).toBe(1);
    expect(await historyPoints(userId)).toBe(before.history);
    expect(await scoreAndAlertEvents(userId)).toBe(before.events);
    // Deferred like the claim's consent skip: same period, no attempt counted, looked at again a day on.
    expect(await scheduleOf(userId)).toEqual({
      monitoring_period: period,
      monitoring_attempts: 0,
      monitoring_next_attempt_at: new Date(now.getTime() + CONSENT_RECHECK_MS),
    });
    const monitoring = (await app.request('GET', `/v1/users/${userId}`, { token: await tok() })).body.data.monitoring;
    expect(monitoring).toMatchObject({ status: 'paused', pausedReason: 'consent_withdrawn' });
  });

  it('before the pull (after the claim): no bureau pull is made at all', async () => {
    const { userId, claimed, now } = await claimedDueUser();
    const before = { history: await historyPoints(userId), events: await scoreAndAlertEvents(userId) };
    const pullsBefore = hooked.creditPullsOf(userId);
    await withdraw(userId);

    expect(await refreshClaimedUser(app.ctx, claimed)).toBe('skipped');

    expect(hooked.creditPullsOf(userId)).toBe(pullsBefore);
    expect(await historyPoints(userId)).toBe(before.history);
    expect(await scoreAndAlertEvents(userId)).toBe(before.events);
    expect(await scheduleOf(userId)).toEqual({
      monitoring_period: claimed.monitoring_period,
      monitoring_attempts: 0,
      monitoring_next_attempt_at: new Date(now.getTime() + CONSENT_RECHECK_MS),
    });
  });
});

const scoreOrAlertEvents = (userId: string) =>
  count(`select count(*)::int as n from outbox_events where data->>'userId' = $1 and type ~ '^(score|alert)\\.'`, [userId]);
const fileOnRecord = (userId: string) =>
  count('select count(*)::int as n from credit_snapshots where user_id = $1 and file_enc is not null', [userId]);
const recordedFiles = async (userId: string) => {
  const { rows } = await app.db.query<{ n: number }>(
    `select count(*)::int as n from audit_events where user_id = $1 and type = 'credit_file.recorded'`,
    [userId],
  );
  const spooled = await app.db.query<{ entries: string }>('select entries from audit_spool');
  const inSpool = spooled.rows
    .flatMap((r) => JSON.parse(r.entries) as unknown[][])
    .filter((e) => e[0] === 'credit_file.recorded' && e[4] === userId).length;
  return Number(rows[0]?.n) + inSpool;
};

describe('a consent withdrawal racing a pull: refresh now and verification', () => {
  it('refresh now: the file is dropped, nothing is recorded, the answer is 403 CONSENT_REQUIRED and the slot stays used', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const before = { history: await historyPoints(userId), events: await scoreAndAlertEvents(userId) };
    const recordedBefore = await recordedFiles(userId);
    hooked.onNextCreditPull(async () => withdraw(userId));
    const pullsBefore = hooked.creditPullsOf(userId);

    const refresh = await app.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token: await tok() });

    expect(refresh.status, JSON.stringify(refresh.body)).toBe(403);
    expect(refresh.body.error.code).toBe('CONSENT_REQUIRED');
    expect(hooked.creditPullsOf(userId)).toBe(pullsBefore + 1);
    expect(await historyPoints(userId)).toBe(before.history);
    expect(await scoreAndAlertEvents(userId)).toBe(before.events);
    expect(await recordedFiles(userId)).toBe(recordedBefore);
    // The file was bought: the day's one refresh is used, and its pull no longer holds the slot.
    const slot = await app.db.query<{ at: Date | null; pending: Date | null }>(
      'select manual_refresh_at as at, manual_refresh_pending_until as pending from users where id = $1',
      [userId],
    );
    expect(slot.rows[0]?.at).not.toBeNull();
    expect(slot.rows[0]?.pending).toBeNull();
  });

  it('verification: the user is verified, the first file is dropped, and monitoring pulls it once consent is back', async () => {
    const userId = await enrolUser(app, await tok());
    hooked.onNextCreditPull(async () => withdraw(userId));
    const pullsBefore = hooked.creditPullsOf(userId);

    await verifyUser(app, await tok(), userId);

    expect(hooked.creditPullsOf(userId)).toBe(pullsBefore + 1);
    expect(await historyPoints(userId)).toBe(0);
    expect(await scoreOrAlertEvents(userId)).toBe(0);
    expect(await fileOnRecord(userId)).toBe(0);
    expect(await recordedFiles(userId)).toBe(0);
    const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
    expect(score.body.error.code).toBe('CONSENT_REQUIRED');

    // Consent given again: the first period is still due, and the job's pull becomes the file on record.
    const consent = await app.request('POST', `/v1/users/${userId}/consent`, { token: await tok(), body: partnerConsent(app) });
    expect(consent.status, JSON.stringify(consent.body)).toBe(201);
    await runMonitoringUntilIdle(app.ctx);
    expect(hooked.creditPullsOf(userId)).toBe(pullsBefore + 2);
    expect(await fileOnRecord(userId)).toBe(1);
    expect(await recordedFiles(userId)).toBe(1);
    const after = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });
});
