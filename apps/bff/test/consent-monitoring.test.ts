import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { runClockAdvancesUntilIdle } from '../src/modules/clocks/service.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { enrolActiveUser, partnerConsent } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const DAY = 86_400_000;

/** The sandbox bureau, counting credit-file pulls per user: the job must not ask for a user without consent. */
const countingBureau = () => {
  const inner = new SandboxBureau();
  const pulls = new Map<string, number>();
  const bureau: BureauProvider = {
    name: inner.name,
    pullCreditFile: (subject, asOf) => {
      pulls.set(subject.userId, (pulls.get(subject.userId) ?? 0) + 1);
      return inner.pullCreditFile(subject, asOf);
    },
    pullIdentityFile: (subject, asOf) => inner.pullIdentityFile(subject, asOf),
    simulateScore: (...args) => inner.simulateScore(...args),
    alwaysFailsVerification: (subject) => inner.alwaysFailsVerification?.(subject) ?? false,
  };
  return { bureau, pullsOf: (userId: string) => pulls.get(userId) ?? 0 };
};

let app: TestApp;
let client: TestClient;
const counting = countingBureau();
const tok = () => app.currentToken(client);

beforeAll(async () => {
  app = await startTestApp({ bureau: counting.bureau });
  client = await app.createClient();
});
afterAll(() => app.close());

const historyPoints = async (userId: string) =>
  Number(
    (await app.db.query<{ n: number }>('select count(*)::int as n from score_history where user_id = $1', [userId])).rows[0]?.n,
  );
const attemptsOf = async (userId: string) =>
  Number((await app.db.query<{ n: number }>('select monitoring_attempts as n from users where id = $1', [userId])).rows[0]?.n);
const monitoringOf = async (userId: string) =>
  (await app.request('GET', `/v1/users/${userId}`, { token: await tok() })).body.data.monitoring;

describe('the monitoring job and consent', () => {
  it('skips users whose consent was withdrawn or has expired, counts no failed attempt, and resumes after consent', async () => {
    const consenting = await enrolActiveUser(app, await tok());
    const withdrawn = await enrolActiveUser(app, await tok());
    const expiring = await enrolActiveUser(app, await tok(), { consent: partnerConsent(app) });
    expect((await app.request('POST', `/v1/users/${withdrawn}/consent/withdraw`, { token: await tok() })).status).toBe(200);
    await runMonitoringUntilIdle(app.ctx);
    const before = {
      consenting: counting.pullsOf(consenting),
      withdrawn: counting.pullsOf(withdrawn),
      history: await historyPoints(withdrawn),
    };

    // A month on, the next period is due for all three; only the consenting user is pulled.
    app.clock.advance(31 * DAY);
    await runMonitoringUntilIdle(app.ctx);
    expect(counting.pullsOf(consenting)).toBe(before.consenting + 1);
    expect(counting.pullsOf(withdrawn)).toBe(before.withdrawn);
    expect(await historyPoints(withdrawn)).toBe(before.history);
    expect(await attemptsOf(withdrawn)).toBe(0);
    expect(await monitoringOf(withdrawn)).toMatchObject({ status: 'paused', pausedReason: 'consent_withdrawn' });

    // A year on the supplied consent has expired: that user is skipped too (the sandbox default does not expire).
    app.clock.advance(340 * DAY);
    const expiringBefore = counting.pullsOf(expiring);
    const consentingBefore = counting.pullsOf(consenting);
    await runMonitoringUntilIdle(app.ctx);
    expect(counting.pullsOf(expiring)).toBe(expiringBefore);
    expect(counting.pullsOf(consenting)).toBeGreaterThan(consentingBefore);
    expect(await monitoringOf(expiring)).toMatchObject({ status: 'paused', pausedReason: 'consent_expired' });

    // Consent given again: monitoring resumes (within a day of the grant at the latest).
    const regranted = await app.request('POST', `/v1/users/${withdrawn}/consent`, {
      token: await tok(),
      body: { termsVersion: app.ctx.config.CONSENT_TERMS_VERSION, method: 'partner_attested' },
    });
    expect(regranted.status).toBe(201);
    app.clock.advance(DAY + 60_000);
    await runMonitoringUntilIdle(app.ctx);
    expect(counting.pullsOf(withdrawn)).toBeGreaterThan(before.withdrawn);
    expect((await monitoringOf(withdrawn)).status).toBe('active');
  });

  it('skips a user without consent on an advancing sandbox test clock', async () => {
    const token = await tok();
    const kept = await enrolActiveUser(app, token);
    const withdrawn = await enrolActiveUser(app, token);
    await runMonitoringUntilIdle(app.ctx);
    const created = await app.request('POST', '/v1/sandbox/clocks', { token, body: { name: 'consent' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clockId = created.body.data.clockId as string;
    const frozen = Date.parse(created.body.data.frozenTime);
    const attached = await app.request('POST', `/v1/sandbox/clocks/${clockId}/users`, {
      token,
      body: { userIds: [kept, withdrawn] },
    });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    expect((await app.request('POST', `/v1/users/${withdrawn}/consent/withdraw`, { token })).status).toBe(200);
    const before = { kept: counting.pullsOf(kept), withdrawn: counting.pullsOf(withdrawn) };

    const advance = await app.request('POST', `/v1/sandbox/clocks/${clockId}/advance`, {
      token,
      body: { frozenTime: new Date(frozen + 95 * DAY).toISOString() },
    });
    expect(advance.status, JSON.stringify(advance.body)).toBe(202);
    await runClockAdvancesUntilIdle(app.ctx);
    expect(counting.pullsOf(kept)).toBe(before.kept + 3);
    expect(counting.pullsOf(withdrawn)).toBe(before.withdrawn);
  });
});
