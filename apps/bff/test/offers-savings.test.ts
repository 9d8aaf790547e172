import type { TCreditReport, TOffer } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreditSubject } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
import { CATALOGUE } from '../src/modules/offers/catalogue.ts';
import { refinanceableAccounts, savingsFor } from '../src/modules/offers/savings.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const DAY = 86_400_000;
const NOW = '2026-11-23T10:00:00.000Z';

let app: TestApp;
let client: TestClient;
const tok = () => app.currentToken(client);

beforeAll(async () => {
  app = await startTestApp();
  app.clock.set(NOW);
  client = await app.createClient();
});
afterAll(() => app.close());

type Account = TCreditReport['accounts'][number];
const entry = (offerId: string) => CATALOGUE.find((o) => o.offerId === offerId) as (typeof CATALOGUE)[number];
const identity = (ssn: string) => ({ firstName: 'Pat', lastName: 'Quinn', ssn, dateOfBirth: '1980-05-05' });
const ADDRESS = { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' };

/**
 * The first sandbox identity (by ssn, from 2000) whose file today has an open loan (not a card) that an active offer
 * the file's score pre-qualifies for would refinance for less: what a partner's customer with a costly loan looks like.
 */
const identityWithRefinanceableLoan = () => {
  const asOf = new Date(NOW);
  for (let ssn = 2000; ssn < 3000; ssn++) {
    const subject: CreditSubject = { userId: 'usr_scan', ...identity(String(ssn)), ssnLast4: String(ssn), address: ADDRESS };
    const file = generateCreditFile(subject, asOf);
    const score = file.monthlyScores.at(-1)?.score ?? 0;
    const accounts = refinanceableAccounts(file, asOf, (id) => id).filter((a) => a.kind !== 'credit_card');
    const saving = CATALOGUE.some((o) => o.expiresInMonths > 0 && score >= o.minScore && savingsFor(o, score, accounts));
    if (saving) return identity(String(ssn));
  }
  throw new Error('no sandbox identity from ssn 2000 to 2999 has a loan an offer would refinance for less');
};

const offersOf = async (userId: string, query = '?limit=100', token?: string) => {
  const res = await app.request('GET', `/v1/users/${userId}/offers${query}`, { token: token ?? (await tok()) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as TOffer[];
};
const reportOf = async (userId: string): Promise<TCreditReport> =>
  (await app.request('GET', `/v1/users/${userId}/credit-report`, { token: await tok() })).body.data;
const scoreOf = async (userId: string): Promise<number> =>
  (await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).body.data.score;

// The savings worked out again here, from the report's own figures, as a partner could check them.
const payment = (principal: number, apr: number, months: number) =>
  apr === 0 ? principal / months : (principal * apr) / 1200 / (1 - (1 + apr / 1200) ** -months);
const monthsBetween = (from: string, to: string) =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
const REFINANCES: Record<string, string[]> = {
  off_fcuAutoRefi001: ['auto_loan'],
  off_nwbPersonal001: ['personal_loan'],
  off_fcuDebtConsol1: ['credit_card', 'personal_loan'],
  off_ctsPlatinumBT01: ['credit_card'],
  off_wgbStudentRf01: ['student_loan'],
  off_tspFixed30yr01: ['mortgage'],
  off_tspFixed15yr01: ['mortgage'],
  off_tspFhaLoan0001: ['mortgage'],
  off_wgbArm71000001: ['mortgage'],
};

/** Checks one offer's savings against the account it names on the report and the user's score. */
const expectSavingsOf = (offer: TOffer, report: TCreditReport, score: number) => {
  const savings = offer.estimatedSavings;
  if (!savings) throw new Error(`${offer.offerId} has no savings`);
  expect(Object.keys(savings).sort()).toEqual(['comparedToAccountId', 'monthly', 'offeredApr', 'total']);
  expect(offer.preQualified).toBe(true);
  const account = report.accounts.find((a) => a.accountId === savings.comparedToAccountId) as Account;
  expect(account, savings.comparedToAccountId).toBeDefined();
  expect(REFINANCES[offer.offerId]).toContain(account.type);
  expect(account.closedOn).toBeNull();
  expect(account.balance).toBeGreaterThanOrEqual(offer.creditLimit?.min ?? 0);
  expect(account.balance).toBeLessThanOrEqual(offer.creditLimit?.max ?? Number.POSITIVE_INFINITY);
  const { minScore } = entry(offer.offerId);
  const share = Math.min(1, (score - minScore) / (850 - minScore));
  expect(savings.offeredApr).toBeCloseTo(offer.apr.max - (offer.apr.max - offer.apr.min) * share, 1);
  expect(savings.offeredApr).toBeLessThan(account.apr ?? 0);
  const card = account.type === 'credit_card';
  const months = card ? 36 : (account.termMonths ?? 0) - monthsBetween(account.openedOn, report.reportDate);
  const now = card ? payment(account.balance, account.apr ?? 0, 36) : (account.monthlyPayment ?? 0);
  const monthly = now - payment(account.balance, savings.offeredApr, months);
  expect(savings.monthly).toBeGreaterThanOrEqual(1);
  expect(Math.abs(savings.monthly - monthly)).toBeLessThanOrEqual(0.5);
  expect(Math.abs(savings.total - monthly * months)).toBeLessThanOrEqual(1);
};

describe('estimatedSavings on a user’s offers', () => {
  let userId: string;
  beforeAll(async () => {
    userId = await enrolActiveUser(app, await tok(), {
      ...identityWithRefinanceableLoan(),
      externalUserId: 'savings-1',
      address: ADDRESS,
    });
  });

  it('shows what refinancing a loan on file would save, and ranks those offers first, largest saving first', async () => {
    const [offers, report, score] = [await offersOf(userId), await reportOf(userId), await scoreOf(userId)];
    const withSavings = offers.filter((o) => o.estimatedSavings);
    expect(withSavings.length).toBeGreaterThan(0);
    expect(offers[0]?.estimatedSavings).not.toBeNull();
    expect(offers.slice(0, withSavings.length)).toEqual(withSavings);
    const totals = withSavings.map((o) => o.estimatedSavings?.total ?? 0);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    for (const offer of withSavings) expectSavingsOf(offer, report, score);
    const loans = withSavings.filter((o) => {
      const account = report.accounts.find((a) => a.accountId === o.estimatedSavings?.comparedToAccountId);
      return account && account.type !== 'credit_card';
    });
    expect(loans.length).toBeGreaterThan(0);

    // The rest keep the score's order: pre-qualified first, the nearest threshold first.
    const rest = offers.slice(withSavings.length);
    const firstNotQualified = rest.findIndex((o) => !o.preQualified);
    if (firstNotQualified >= 0) expect(rest.slice(firstNotQualified).every((o) => !o.preQualified)).toBe(true);
    for (const group of [rest.filter((o) => o.preQualified), rest.filter((o) => !o.preQualified)]) {
      const distances = group.map((o) => Math.abs(score - entry(o.offerId).minScore));
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
    }
  });

  it('pages through the same order, and shows the same savings to the user’s own token', async () => {
    const full = await offersOf(userId);
    const paged: TOffer[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: TOffer[]; pagination: { nextCursor: string | null } } } = await app.request(
        'GET',
        `/v1/users/${userId}/offers?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        { token: await tok() },
      );
      paged.push(...res.body.data);
      cursor = res.body.pagination.nextCursor;
    } while (cursor);
    expect(paged).toEqual(full);
    const userToken = await app.userToken(await tok(), 'savings-1');
    expect(await offersOf(userId, '?limit=100', userToken)).toEqual(full);
  });

  it('follows the score: another score band is another offered APR', async () => {
    const other = await enrolActiveUser(app, await tok(), { ...identityWithRefinanceableLoan(), address: ADDRESS });
    const before = (await offersOf(other)).find((o) => o.estimatedSavings);
    const score = await scoreOf(other);
    const refreshed = await app.request('POST', `/v1/sandbox/users/${other}/score-refresh`, {
      token: await tok(),
      body: { score: Math.min(850, score + 20) },
    });
    expect(refreshed.status).toBe(200);
    const [offers, report] = [await offersOf(other), await reportOf(other)];
    const after = offers.find((o) => o.offerId === before?.offerId);
    expect(after?.estimatedSavings?.offeredApr).toBeLessThan(before?.estimatedSavings?.offeredApr ?? 0);
    for (const offer of offers.filter((o) => o.estimatedSavings)) expectSavingsOf(offer, report, await scoreOf(other));
  });

  it('is worked out again from the next pull’s file', async () => {
    const started = app.clock.now();
    try {
      app.clock.advance(30 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      const [offers, report, score] = [await offersOf(userId), await reportOf(userId), await scoreOf(userId)];
      expect(report.reportDate).not.toBe(NOW.slice(0, 10));
      for (const offer of offers.filter((o) => o.estimatedSavings)) expectSavingsOf(offer, report, score);
    } finally {
      app.clock.set(started);
    }
  });

  it('is null for a user with nothing to refinance, whose offers keep the score’s order', async () => {
    const quiet = await enrolActiveUser(app, await tok(), { ssn: '1002' });
    const report = await reportOf(quiet);
    const offers = await offersOf(quiet, '?status=all&limit=100');
    const refinanceable = report.accounts.some((a) => a.closedOn === null && a.apr !== null && a.balance > 0);
    if (!refinanceable) expect(offers.every((o) => o.estimatedSavings === null)).toBe(true);
    for (const offer of offers.filter((o) => !o.preQualified)) expect(offer.estimatedSavings).toBeNull();
  });

  it('is always null in the catalogue', async () => {
    const res = await app.request('GET', '/v1/offers?status=all&limit=100', { token: await tok() });
    expect(res.status).toBe(200);
    expect((res.body.data as TOffer[]).every((o) => o.estimatedSavings === null)).toBe(true);
  });
});

describe('sandbox story 1004: costly credit worth refinancing', () => {
  it('gives a good score whose offers save money, checked against the report', async () => {
    const saved: string[] = [];
    for (const lastName of ['Costly', 'Dearer', 'Pricey']) {
      const userId = await enrolActiveUser(app, await tok(), {
        ...identity('1004'),
        lastName,
        externalUserId: `costly-${lastName}`,
        address: ADDRESS,
      });
      const [offers, report, score] = [await offersOf(userId), await reportOf(userId), await scoreOf(userId)];
      expect(score).toBeGreaterThanOrEqual(700);
      expect(report.summary.utilizationPercent).toBeGreaterThanOrEqual(30);
      for (const offer of offers.filter((o) => o.estimatedSavings)) expectSavingsOf(offer, report, score);
      if (offers[0]?.estimatedSavings) saved.push(lastName);
    }
    // All but a few in a hundred such files have savings (docs/partner/simulator.md); these three all do.
    expect(saved).toEqual(['Costly', 'Dearer', 'Pricey']);
  });
});
