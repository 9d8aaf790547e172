import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { CONSENT_RECHECK_MS } from '../src/modules/monitoring/repo.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { type ClaimedUser, claimDueUsers, refreshClaimedUser } from '../src/modules/monitoring/service.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const DAY = 86_400_000;

/**
 * The sandbox bureau, counting credit-file pulls per user, with a hook that runs while a pull is in flight (after the
 * request reached the bureau, before its answer comes back): where a consumer's withdrawal can land.
 */
const hookedBureau = () => {
  const inner = new SandboxBureau();
  const pulls = new Map<string, number>();
  let duringPull: ((userId: string) => Promise<void>) | undefined;
  const bureau: BureauProvider = {
    name: inner.name,
    pullCreditFile: async (subject, asOf) => {
      pulls.set(subject.userId, (pulls.get(subject.userId) ?? 0) + 1);
      const answer = await inner.pullCreditFile(subject, asOf);
      const hook = duringPull;
      duringPull = undefined;
      await hook?.(subject.userId);
      return answer;
    },
    pullIdentityFile: (subject, asOf) => inner.pullIdentityFile(subject, asOf),
    alwaysFailsVerification: (subject) => inner.alwaysFailsVerification?.(subject) ?? false,
  };
  return {
    bureau,
    pullsOf: (userId: string) => pulls.get(userId) ?? 0,
    onNextPull: (hook: (userId: string) => Promise<void>) => {
      duringPull = hook;
    },
  };
};

let app: TestApp;
let client: TestClient;
const hooked = hookedBureau();
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

describe('a consent withdrawal racing a monitoring refresh', () => {
  it('while the pull is in flight: the pulled file is dropped, nothing is recorded after consent.withdrawn, the user is deferred', async () => {
    const { userId, claimed, now } = await claimedDueUser();
    const before = { history: await historyPoints(userId), events: await scoreAndAlertEvents(userId) };
    const period = claimed.monitoring_period;
    hooked.onNextPull(async (pulledFor) => {
      expect(pulledFor).toBe(userId);
      await withdraw(userId);
    });
    const pullsBefore = hooked.pullsOf(userId);

    expect(await refreshClaimedUser(app.ctx, claimed)).toBe('skipped');

    expect(hooked.pullsOf(userId)).toBe(pullsBefore + 1);
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
    const pullsBefore = hooked.pullsOf(userId);
    await withdraw(userId);

    expect(await refreshClaimedUser(app.ctx, claimed)).toBe('skipped');

    expect(hooked.pullsOf(userId)).toBe(pullsBefore);
    expect(await historyPoints(userId)).toBe(before.history);
    expect(await scoreAndAlertEvents(userId)).toBe(before.events);
    expect(await scheduleOf(userId)).toEqual({
      monitoring_period: claimed.monitoring_period,
      monitoring_attempts: 0,
      monitoring_next_attempt_at: new Date(now.getTime() + CONSENT_RECHECK_MS),
    });
  });
});
