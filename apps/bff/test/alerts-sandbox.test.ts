import { ALERT_TYPES, ZAlertCreatedData } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditFile } from '../src/bureau/provider.ts';
import { pullIdentityFile } from '../src/modules/credit/service.ts';
import { findLiveUser } from '../src/modules/users/repo.ts';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrolActiveUser, partnerConsent } from './helpers/credit-users.ts';
import { enrollment, productionEnv, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const ACCOUNT_TYPES = ['credit_card', 'auto_loan', 'student_loan', 'mortgage', 'personal_loan'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

let app: TestApp;
let client: TestClient;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const createAlert = (userId: string, body: unknown, t = token) =>
  app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token: t, body });

/** The user's sandbox file as the bureau reports it today: what the alerts must agree with. */
const creditFileOf = async (userId: string): Promise<CreditFile> => {
  const user = await findLiveUser(app.db, client.id, userId);
  if (!user) throw new Error('user not found');
  return (await pullIdentityFile(app.ctx, user)).file;
};

describe('sandbox alerts', () => {
  const input = enrollment({ address: { street: '77 Quarry Lane', city: 'Springfield', state: 'IL', zipCode: '62701' } });
  let userId: string;
  let file: CreditFile;
  beforeAll(async () => {
    userId = await enrolActiveUser(app, token, input);
    file = await creditFileOf(userId);
  });

  it.each(ALERT_TYPES)('creates an unread %s alert with a title, message and data, and announces it', async (type) => {
    const res = await createAlert(userId, { type });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const alert = res.body.data;
    expect(alert).toMatchObject({ alertId: expect.stringMatching(/^alt_/), type, status: 'unread' });
    expect(alert.createdAt).toBe(app.clock.now().toISOString());
    expect(alert.title.length).toBeGreaterThan(10);
    expect(alert.message.length).toBeGreaterThan(20);
    expect(alert.severity).toEqual(type === 'fraud_alert' ? 'critical' : expect.stringMatching(/^(info|warning)$/));
    // Alerts (and every webhook copy of them) never carry the street address.
    expect(JSON.stringify(alert)).not.toContain('Quarry');

    const listed = await app.request('GET', `/v1/users/${userId}/alerts?type=${type}&limit=1`, { token });
    expect(listed.body.data[0]).toEqual(alert);

    const events = (await listEventsForClient(app.db, client.id)).filter(
      (e) => e.type === 'alert.created' && (e.data.alert as { alertId: string }).alertId === alert.alertId,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.createdAt.toISOString()).toBe(alert.createdAt);
    expect(events[0]?.data).toEqual({
      userId,
      externalUserId: input.externalUserId,
      alert: { alertId: alert.alertId, type, title: alert.title, message: alert.message, severity: alert.severity },
    });
    expect(ZAlertCreatedData.safeParse(events[0]?.data).success).toBe(true);
  });

  it('new_inquiry: data is exactly {inquirySource, inquiryDate}, the newest inquiry on the file', async () => {
    const { data } = (await createAlert(userId, { type: 'new_inquiry' })).body.data;
    expect(Object.keys(data).sort()).toEqual(['inquiryDate', 'inquirySource']);
    expect(data.inquiryDate).toMatch(DATE);
    expect(typeof data.inquirySource).toBe('string');
    const newest = [...file.inquiries].sort((a, b) => b.date.localeCompare(a.date))[0];
    if (newest) expect(data).toEqual({ inquirySource: newest.source, inquiryDate: newest.date });
  });

  it('score_change: data is exactly {previousScore, newScore, change} from the user’s last two scores', async () => {
    const first = (await createAlert(userId, { type: 'score_change' })).body.data;
    expect(Object.keys(first.data).sort()).toEqual(['change', 'newScore', 'previousScore']);
    const [previous, current] = file.monthlyScores.slice(-2).map((m) => m.score);
    expect(first.data).toEqual({
      previousScore: previous,
      newScore: current,
      change: (current as number) - (previous as number),
    });

    const refreshed = await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token, body: { score: 300 } });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const drop = (await createAlert(userId, { type: 'score_change' })).body.data;
    expect(drop.data).toEqual({ previousScore: current, newScore: 300, change: 300 - (current as number) });
    expect(drop.severity).toBe('warning');
    expect(drop.title).toBe(`Your score went down ${(current as number) - 300} points`);

    await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token, body: { score: 314 } });
    const rise = (await createAlert(userId, { type: 'score_change' })).body.data;
    expect(rise).toMatchObject({ severity: 'info', title: 'Your score went up 14 points' });
    expect(rise.data).toEqual({ previousScore: 300, newScore: 314, change: 14 });
  });

  it('high_utilization: the card figures of the user’s score factors', async () => {
    const alert = (await createAlert(userId, { type: 'high_utilization' })).body.data;
    const openCards = file.tradelines.filter((t) => t.kind === 'credit_card' && !t.closedOn);
    const totalLimit = openCards.reduce((sum, t) => sum + t.limitOrAmount, 0);
    const totalBalance = openCards.reduce((sum, t) => sum + t.balance, 0);
    expect(alert.data).toEqual({
      utilizationPercent: expect.closeTo((totalBalance / totalLimit) * 100, 0),
      totalBalance,
      totalLimit,
    });
    expect(alert.severity).toBe('warning');
    const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token });
    const factor = score.body.data.factors.find((f: { code: string }) => f.code === 'CREDIT_UTILIZATION');
    expect(factor.details).toEqual(alert.data);
  });

  it('new_account, account_closed and late_payment name a lender and an account type from the file', async () => {
    const lenders = new Set(file.tradelines.map((t) => t.lender));
    for (const type of ['new_account', 'account_closed', 'late_payment']) {
      const { data, message } = (await createAlert(userId, { type })).body.data;
      expect(lenders.has(data.lender), `${type}: ${data.lender}`).toBe(true);
      expect(ACCOUNT_TYPES).toContain(data.accountType);
      expect(file.tradelines.some((t) => t.lender === data.lender && t.kind === data.accountType)).toBe(true);
      expect(message).toContain(data.lender);
    }
    const newest = [...file.tradelines].sort((a, b) => b.openedOn.localeCompare(a.openedOn))[0];
    const opened = (await createAlert(userId, { type: 'new_account' })).body.data;
    expect(opened.data).toMatchObject({ lender: newest?.lender, openedDate: newest?.openedOn });
  });

  it('address_change: city and state only, no street', async () => {
    const alert = (await createAlert(userId, { type: 'address_change' })).body.data;
    expect(alert.data).toMatchObject({ city: 'Springfield', state: 'IL', reportedDate: expect.stringMatching(DATE) });
    expect(alert.data).not.toHaveProperty('street');
    expect(alert.data).not.toHaveProperty('zipCode');
    expect(alert.message).toContain('Springfield, IL');
  });

  it('fraud_alert is critical', async () => {
    const alert = (await createAlert(userId, { type: 'fraud_alert' })).body.data;
    expect(alert.severity).toBe('critical');
    expect(alert.data).toMatchObject({ reason: expect.any(String), reportedDate: expect.stringMatching(DATE) });
  });

  it.each([
    [{ type: 'boat' }, 'type'],
    [{}, 'type'],
    [{ type: 'fraud_alert', severity: 'info' }, 'severity'],
  ])('rejects %j with 400 and creates nothing', async (body, field) => {
    const before = (await app.request('GET', `/v1/users/${userId}/alerts`, { token })).body.pagination.total;
    const res = await createAlert(userId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe(field);
    expect((await app.request('GET', `/v1/users/${userId}/alerts`, { token })).body.pagination.total).toBe(before);
  });

  it('creates one alert for a retried request with the same Idempotency-Key', async () => {
    const send = () =>
      app.request('POST', `/v1/sandbox/users/${userId}/alerts`, {
        token,
        body: { type: 'fraud_alert' },
        headers: { 'idempotency-key': 'sandbox-fraud-once' },
      });
    const first = await send();
    const retry = await send();
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.alertId).toBe(first.body.data.alertId);
    const created = (await listEventsForClient(app.db, client.id)).filter(
      (e) => e.type === 'alert.created' && (e.data.alert as { alertId: string }).alertId === first.body.data.alertId,
    );
    expect(created).toHaveLength(1);
  });

  it('needs the admin scope', async () => {
    const writer = await app.token(client, 'read write');
    const res = await createAlert(userId, { type: 'fraud_alert' }, writer);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });
});

describe('sandbox alerts in production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await startTestApp({
      config: productionEnv(),
    });
  });
  afterAll(() => prod.close());

  it('do not exist', async () => {
    const live = await prod.createClient();
    const t = await prod.token(live);
    const enrolled = await prod.request('POST', '/v1/users/enroll', {
      token: t,
      body: enrollment({ consent: partnerConsent(prod) }),
    });
    expect(enrolled.status).toBe(201);
    const res = await prod.request('POST', `/v1/sandbox/users/${enrolled.body.data.userId}/alerts`, {
      token: t,
      body: { type: 'fraud_alert' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
