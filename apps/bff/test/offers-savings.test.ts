import type { TCreditReport, TOffer, TOfferSavings } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitoringUntilIdle } from '../src/modules/monitoring/scheduler.ts';
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
  client = await app.createClient({ name: 'Maple Bank' });
});
afterAll(() => app.close());

type Account = TCreditReport['accounts'][number];
type Savings = NonNullable<TOfferSavings>;

const offersOf = async (userId: string, query = '?limit=100', token?: string) => {
  const res = await app.request('GET', `/v1/users/${userId}/offers${query}`, { token: token ?? (await tok()) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as TOffer[];
};
const reportOf = async (userId: string): Promise<TCreditReport> =>
  (await app.request('GET', `/v1/users/${userId}/credit-report`, { token: await tok() })).body.data;
const scoreOf = async (userId: string): Promise<number> =>
  (await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).body.data.score;

// ----- The savings worked out again here, from the report's own figures, as a partner could check them -----

/** The standard level payment: P = B·r / (1 − (1 + r)^−n). */
const payment = (balance: number, apr: number, months: number) =>
  apr === 0 ? balance / months : (balance * (apr / 1200)) / (1 - (1 + apr / 1200) ** -months);

/** Month by month: each month's interest (the intro rate for its months) added, then the payment taken off. */
const owedAfter = (
  principal: number,
  apr: number,
  intro: { apr: number; months: number } | null,
  months: number,
  pay: number,
) => {
  let balance = principal;
  for (let month = 0; month < months; month++) {
    const rate = intro && month < intro.months ? intro.apr : apr;
    balance += (balance * rate) / 1200 - pay;
  }
  return balance;
};

/** What is owed after the last month falls linearly with the payment: two runs give the payment that leaves nothing. */
const loopPayment = (principal: number, apr: number, intro: { apr: number; months: number } | null, months: number) => {
  const unpaid = owedAfter(principal, apr, intro, months, 0);
  return unpaid / (unpaid - owedAfter(principal, apr, intro, months, 1));
};

/** Monthly payments made by `day`: one due each month on the opening day, or the 28th when it opened later. */
const paymentsMade = (openedOn: string, day: string) => {
  const dueDay = Math.min(28, Number(openedOn.slice(8, 10)));
  const months =
    (Number(day.slice(0, 4)) - Number(openedOn.slice(0, 4))) * 12 + Number(day.slice(5, 7)) - Number(openedOn.slice(5, 7));
  return Math.max(0, months - (Number(day.slice(8, 10)) < dueDay ? 1 : 0));
};

/** A card balance has no term: both sides are compared paying it off over three years (`currentRemainingMonths`). */
const CARD_MONTHS = 36;

const remainingMonths = (account: Account, report: TCreditReport) =>
  account.type === 'credit_card' ? CARD_MONTHS : (account.termMonths ?? 0) - paymentsMade(account.openedOn, report.reportDate);

/** Keeping the account to its end against moving its balance to the offer at the customer's tier APR, exactly. */
const compare = (account: Account, offer: TOffer, apr: number, report: TCreditReport) => {
  const months = remainingMonths(account, report);
  const current = payment(account.balance, account.apr ?? 0, months);
  // An origination fee comes off what is lent, so the loan is larger by it; a transfer fee is added to the balance moved.
  const financed =
    (account.balance / (1 - (offer.costs.originationFeePercent ?? 0) / 100)) *
    (1 + (offer.costs.balanceTransferFeePercent ?? 0) / 100);
  const term = offer.termMonths ?? CARD_MONTHS;
  const intro = offer.costs.introApr;
  const offerPayment = intro ? loopPayment(financed, apr, intro, term) : payment(financed, apr, term);
  const annualFees = offer.costs.annualFee * Math.ceil(term / 12);
  return {
    months,
    current,
    currentTotal: current * months,
    term,
    intro,
    financed,
    offerPayment,
    offerTotal: offerPayment * term + annualFees,
    fees: financed - account.balance + annualFees,
  };
};
type Comparison = ReturnType<typeof compare>;

/** The open accounts the offer could take over at the customer's tier, by its refinance rule. */
const candidatesFor = (offer: TOffer, report: TCreditReport, score: number): Account[] => {
  const rule = offer.rules.refinance;
  const tier = offer.tiers.find((t) => score >= t.minScore && score <= t.maxScore);
  if (!rule || !tier) return [];
  return report.accounts.filter(
    (a) =>
      a.status === 'open' &&
      a.closedOn === null &&
      a.apr !== null &&
      a.balance > 0 &&
      remainingMonths(a, report) > 0 &&
      (rule.accountKinds as readonly string[]).includes(a.type) &&
      a.balance >= (rule.minBalance ?? 0) &&
      a.apr > tier.apr &&
      a.apr >= tier.apr + (rule.minAprAbove ?? 0) &&
      (!tier.creditLimit || a.balance <= tier.creditLimit.max),
  );
};

const CENT = 0.005 + 1e-6;

/** Every figure of one offer's savings against the account it names on the report, and the claim it makes. */
const expectHonestSavings = (offer: TOffer, report: TCreditReport, score: number): Comparison => {
  const savings = offer.estimatedSavings as Savings;
  expect(offer.preQualified, offer.name).toBe(true);
  const tier = offer.tiers.find((t) => score >= t.minScore && score <= t.maxScore);
  expect(savings.offeredApr).toBe(tier?.apr);
  expect(savings.offeredApr).toBe(offer.qualification?.apr);
  const account = report.accounts.find((a) => a.accountId === savings.comparedToAccountId) as Account;
  expect(account, savings.comparedToAccountId).toBeDefined();
  expect(candidatesFor(offer, report, score).map((a) => a.accountId)).toContain(account.accountId);

  const c = compare(account, offer, savings.offeredApr, report);
  expect(savings.currentRemainingMonths).toBe(c.months);
  expect(savings.offerTermMonths).toBe(c.term);
  expect(Math.abs(savings.currentMonthlyPayment - c.current), 'current payment').toBeLessThanOrEqual(CENT);
  expect(Math.abs(savings.currentTotalCost - c.currentTotal), 'current total').toBeLessThanOrEqual(CENT);
  expect(Math.abs(savings.offerMonthlyPayment - c.offerPayment), 'offer payment').toBeLessThanOrEqual(CENT);
  expect(Math.abs(savings.offerTotalCost - c.offerTotal), 'offer total').toBeLessThanOrEqual(CENT);
  expect(Math.abs(savings.fees - c.fees), 'fees').toBeLessThanOrEqual(CENT);
  expect(Math.abs(savings.monthlyChange - (c.offerPayment - c.current))).toBeLessThanOrEqual(2 * CENT);
  expect(Math.abs(savings.totalCostChange - (c.offerTotal - c.currentTotal))).toBeLessThanOrEqual(2 * CENT);
  // A loan's current payment is what its lender reports (its balance follows the schedule; the report rounds to dollars).
  if (account.type !== 'credit_card') expect(Math.abs(c.current - (account.monthlyPayment ?? 0))).toBeLessThanOrEqual(1);
  // The offer's payment repays what it lends by the end of its term, and not a cent less does.
  expect(owedAfter(c.financed, savings.offeredApr, c.intro, c.term, savings.offerMonthlyPayment + 0.01)).toBeLessThan(0);
  expect(owedAfter(c.financed, savings.offeredApr, c.intro, c.term, savings.offerMonthlyPayment - 0.01)).toBeGreaterThan(0);

  // The claim: a saving of at least a dollar, each one shown real, and the verdict saying which.
  const lowerPayment = savings.monthlyChange <= -1;
  const lowerCost = savings.totalCostChange <= -1;
  expect(lowerPayment || lowerCost, `${offer.name}: a saving is claimed`).toBe(true);
  if (lowerPayment) expect(c.offerPayment).toBeLessThan(c.current);
  if (lowerCost) expect(c.offerTotal).toBeLessThan(c.currentTotal);
  expect(savings.verdict).toBe(
    lowerPayment && lowerCost ? 'lower_payment_and_cost' : lowerCost ? 'lower_cost_higher_payment' : 'lower_payment_higher_cost',
  );
  return c;
};

/**
 * Checks every offer of a user: the savings shown are honest and on the account that saves the most; a qualifying
 * refinance offer without savings has no account it would save a dollar on; qualifying offers come first, the
 * largest drop in total cost first.
 */
const expectOffersHonest = (offers: TOffer[], report: TCreditReport, score: number) => {
  for (const offer of offers) {
    if (!offer.preQualified || !offer.rules.refinance) {
      expect(offer.estimatedSavings, offer.name).toBeNull();
      continue;
    }
    const alternatives = candidatesFor(offer, report, score).map((a) => compare(a, offer, offer.qualification?.apr ?? 0, report));
    const saving = alternatives.filter(
      (c) => c.offerPayment - c.current <= -1 + 2 * CENT || c.offerTotal - c.currentTotal <= -1 + 2 * CENT,
    );
    if (!offer.estimatedSavings) {
      expect(saving, `${offer.name}: an account it would save on`).toEqual([]);
      continue;
    }
    const chosen = expectHonestSavings(offer, report, score);
    for (const other of saving) {
      expect(chosen.offerTotal - chosen.currentTotal).toBeLessThanOrEqual(other.offerTotal - other.currentTotal + 2 * CENT);
    }
  }
  const firstNotQualified = offers.findIndex((o) => !o.preQualified);
  if (firstNotQualified >= 0) expect(offers.slice(firstNotQualified).every((o) => !o.preQualified)).toBe(true);
  const changes = offers.filter((o) => o.preQualified).map((o) => o.estimatedSavings?.totalCostChange ?? 0);
  expect(changes).toEqual([...changes].sort((a, b) => a - b));
};

const identity = (lastName: string) => ({ firstName: 'Pat', lastName, ssn: '1004', dateOfBirth: '1980-05-05' });
const COSTLY = ['Costly', 'Dearer', 'Pricey', 'Steep', 'Premium'];

describe('estimatedSavings on a user’s offers', () => {
  let userId: string;
  /** Users of the first test whose savings include a loan (not a card), for the next pull's check. */
  const withLoanSaving: string[] = [];
  beforeAll(async () => {
    // Costs the sample catalogue leaves out: an annual fee on a transfer card, a long loan with an origination fee.
    for (const body of [
      {
        type: 'credit_card',
        name: 'Maple Fee Transfer Card',
        aprType: 'variable',
        tiers: [{ minScore: 600, maxScore: 850, apr: 11.99, creditLimit: { min: 1000, max: 25000 } }],
        rules: { minScore: 600, refinance: { accountKinds: ['credit_card'], minBalance: 1000 } },
        costs: { annualFee: 95, balanceTransferFeePercent: 4, introApr: { apr: 2.99, months: 6 } },
      },
      {
        type: 'loan',
        name: 'Maple Long Refinance Loan',
        aprType: 'fixed',
        termMonths: 84,
        tiers: [
          { minScore: 600, maxScore: 719, apr: 9.5, creditLimit: { min: 2000, max: 60000 } },
          { minScore: 720, maxScore: 850, apr: 6.25, creditLimit: { min: 2000, max: 60000 } },
        ],
        rules: { minScore: 600, refinance: { accountKinds: ['auto_loan', 'student_loan', 'personal_loan'] } },
        costs: { annualFee: 0, originationFeePercent: 2.5 },
      },
    ]) {
      const res = await app.request('POST', '/v1/offers', {
        token: await tok(),
        body: { description: 'An offer the tests add.', applicationUrl: 'https://apply.maple.test/x', ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    userId = await enrolActiveUser(app, await tok(), { ...identity('Costly'), externalUserId: 'savings-1' });
  });

  it('shows what moving an account on file would change, every figure worked out again from the report', async () => {
    const kinds = new Set<string>();
    const verdicts = new Set<string>();
    const offersWithFees = new Set<string>();
    for (const lastName of COSTLY) {
      const id = lastName === 'Costly' ? userId : await enrolActiveUser(app, await tok(), identity(lastName));
      const [offers, report, score] = [await offersOf(id), await reportOf(id), await scoreOf(id)];
      expectOffersHonest(offers, report, score);
      for (const offer of offers.filter((o) => o.estimatedSavings)) {
        const savings = offer.estimatedSavings as Savings;
        const kind = report.accounts.find((a) => a.accountId === savings.comparedToAccountId)?.type ?? '';
        kinds.add(kind);
        if (kind !== 'credit_card' && !withLoanSaving.includes(id)) withLoanSaving.push(id);
        verdicts.add(savings.verdict);
        if (savings.fees > 0) offersWithFees.add(offer.name);
      }
    }
    // Across these files: cards and loans refinanced, each verdict, and fees inside the totals.
    expect(kinds.has('credit_card')).toBe(true);
    expect([...kinds].filter((k) => k !== 'credit_card').length).toBeGreaterThan(0);
    expect([...verdicts].sort()).toEqual(['lower_cost_higher_payment', 'lower_payment_and_cost', 'lower_payment_higher_cost']);
    expect(offersWithFees).toContain('Maple Fee Transfer Card');
    expect(offersWithFees).toContain('Maple Bank Balance Transfer Card');
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

  it('follows the score: another rate band is another offered APR, and other savings', async () => {
    const other = await enrolActiveUser(app, await tok(), identity('Dearer'));
    const score = await scoreOf(other);
    const before = await offersOf(other);
    const target = score >= 760 ? 700 : 775;
    const refreshed = await app.request('POST', `/v1/sandbox/users/${other}/score-refresh`, {
      token: await tok(),
      body: { score: target },
    });
    expect(refreshed.status).toBe(200);
    const [after, report] = [await offersOf(other), await reportOf(other)];
    expectOffersHonest(after, report, target);
    const moved = after.filter((o) => {
      const was = before.find((b) => b.offerId === o.offerId);
      return o.estimatedSavings && was?.estimatedSavings && o.estimatedSavings.offeredApr !== was.estimatedSavings.offeredApr;
    });
    expect(moved.length).toBeGreaterThan(0);
    for (const offer of moved) {
      const was = before.find((b) => b.offerId === offer.offerId)?.estimatedSavings as Savings;
      const now = offer.estimatedSavings as Savings;
      if (target > score) expect(now.offeredApr).toBeLessThan(was.offeredApr);
      else expect(now.offeredApr).toBeGreaterThan(was.offeredApr);
    }
  });

  it('is worked out again from the next pull’s file: fewer payments left on each loan', async () => {
    const userId = withLoanSaving[0] as string;
    expect(userId).toEqual(expect.any(String));
    const before = await reportOf(userId);
    const started = app.clock.now();
    try {
      app.clock.advance(30 * DAY);
      await runMonitoringUntilIdle(app.ctx);
      const [offers, report, score] = [await offersOf(userId), await reportOf(userId), await scoreOf(userId)];
      expect(report.reportDate).not.toBe(before.reportDate);
      expectOffersHonest(offers, report, score);
      let loans = 0;
      for (const offer of offers.filter((o) => o.estimatedSavings)) {
        const savings = offer.estimatedSavings as Savings;
        const then = before.accounts.find((a) => a.accountId === savings.comparedToAccountId);
        const now = report.accounts.find((a) => a.accountId === savings.comparedToAccountId) as Account;
        if (then && now.type !== 'credit_card') {
          expect(savings.currentRemainingMonths).toBe(remainingMonths(then, before) - 1);
          expect(now.balance).toBeLessThan(then.balance);
          loans += 1;
        }
      }
      expect(loans).toBeGreaterThan(0);
    } finally {
      app.clock.set(started);
    }
  });

  it('is null for a user with nothing to refinance', async () => {
    const quiet = await enrolActiveUser(app, await tok(), { ssn: '1002' });
    const [offers, report, score] = [await offersOf(quiet, '?status=all&limit=100'), await reportOf(quiet), await scoreOf(quiet)];
    expectOffersHonest(offers, report, score);
    expect(offers.every((o) => o.estimatedSavings === null)).toBe(true);
  });

  it('is null when the customer does not qualify, even with an account the offer would save on', async () => {
    const userId2 = await enrolActiveUser(app, await tok(), identity('Pricey'));
    const saving = (await offersOf(userId2)).filter((o) => o.estimatedSavings).map((o) => o.offerId);
    expect(saving.length).toBeGreaterThan(0);
    const res = await app.request('POST', `/v1/sandbox/users/${userId2}/score-refresh`, {
      token: await tok(),
      body: { score: 590 },
    });
    expect(res.status).toBe(200);
    const offers = await offersOf(userId2);
    for (const offer of offers.filter((o) => saving.includes(o.offerId))) {
      expect(offer.preQualified).toBe(false);
      expect(offer.qualification?.reasons.find((r) => r.rule === 'score')).toMatchObject({ met: false, actual: 590 });
      expect(offer.estimatedSavings).toBeNull();
    }
  });

  it('is always null in the catalogue', async () => {
    const res = await app.request('GET', '/v1/offers?status=all&limit=100', { token: await tok() });
    expect(res.status).toBe(200);
    expect((res.body.data as TOffer[]).every((o) => o.estimatedSavings === null && o.qualification === null)).toBe(true);
  });
});

describe('sandbox story 1004: costly credit worth refinancing', () => {
  it('gives a good score whose offers save money, checked against the report', async () => {
    const saved: string[] = [];
    for (const lastName of ['Costly', 'Dearer', 'Pricey']) {
      const userId = await enrolActiveUser(app, await tok(), { ...identity(lastName), externalUserId: `costly-${lastName}` });
      const [offers, report, score] = [await offersOf(userId), await reportOf(userId), await scoreOf(userId)];
      expect(score).toBeGreaterThanOrEqual(700);
      expect(report.summary.utilizationPercent).toBeGreaterThanOrEqual(30);
      expectOffersHonest(offers, report, score);
      if (offers[0]?.estimatedSavings && (offers[0].estimatedSavings.totalCostChange ?? 0) <= -1) saved.push(lastName);
    }
    expect(saved).toEqual(['Costly', 'Dearer', 'Pricey']);
  });
});
