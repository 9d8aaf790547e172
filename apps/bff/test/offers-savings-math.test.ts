import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amortizedPayment } from '../src/bureau/amortization.ts';
import type { CreditFile, Tradeline } from '../src/bureau/provider.ts';
import {
  CARD_PAYOFF_MONTHS,
  compareRefinance,
  type RefinanceableAccount,
  type RefinanceComparison,
  type RefinanceTerms,
  refinanceableAccounts,
} from '../src/modules/offers/savings.ts';

// Every figure a customer reads as money is checked against a month-by-month simulation written here, never against
// the closed forms savings.ts uses; the hand-checked figures were worked out with 50-digit decimals.

interface Rates {
  apr: number;
  intro: { apr: number; months: number } | null;
}

/** Month by month: each month's interest is added to the balance and the payment taken off it. */
const simulate = (principal: number, rates: Rates, months: number, payment: number, annualFee = 0) => {
  let balance = principal;
  let paid = 0;
  let fees = 0;
  let paidOffAfter: number | null = null;
  for (let month = 0; month < months; month++) {
    if (month % 12 === 0) fees += annualFee;
    const apr = rates.intro && month < rates.intro.months ? rates.intro.apr : rates.apr;
    balance += (balance * apr) / 1200 - payment;
    paid += payment;
    if (paidOffAfter === null && balance <= 0) paidOffAfter = month + 1;
  }
  return { balance, paid, fees, paidOffAfter };
};

/** The balance left after the last month falls linearly with the payment, so two runs give the one that leaves nothing. */
const simulatedPayment = (principal: number, rates: Rates, months: number): number => {
  const owedWithoutPaying = simulate(principal, rates, months, 0).balance;
  const repaidPerDollar = owedWithoutPaying - simulate(principal, rates, months, 1).balance;
  return owedWithoutPaying / repaidPerDollar;
};

/** A cent less leaves something owed after the last month, a cent more pays it off in that month and not before. */
const expectRepaysAtTerm = (principal: number, rates: Rates, months: number, payment: number) => {
  expect(simulate(principal, rates, months, payment - 0.01).balance).toBeGreaterThan(0);
  expect(simulate(principal, rates, months, payment + 0.01).paidOffAfter).toBe(months);
  expect(Math.abs(simulatedPayment(principal, rates, months) - payment)).toBeLessThanOrEqual(0.005 + 1e-9);
};

const fixed = (apr: number): Rates => ({ apr, intro: null });

const account = (overrides: Partial<RefinanceableAccount> = {}): RefinanceableAccount => ({
  accountId: 'acc_aaaaaaaaaaaaaaaaaaaa',
  kind: 'mortgage',
  balance: 436_246,
  apr: 7,
  remainingMonths: 300,
  ...overrides,
});
const terms = (overrides: Partial<RefinanceTerms> = {}): RefinanceTerms => ({
  apr: 6.5,
  termMonths: 180,
  originationFeePercent: 0,
  balanceTransferFeePercent: 0,
  introApr: null,
  annualFee: 0,
  ...overrides,
});
const compared = (a: RefinanceableAccount, t: RefinanceTerms): RefinanceComparison => {
  const result = compareRefinance(a, t);
  if (!result) throw new Error('expected a comparison');
  return result;
};

/** $436,246 at 7 % over its last 300 months: r = 0.07/12, (1+r)^300 = 5.72541821, factor 0.0070677920. */
const MORTGAGE_NOW = { payment: 3083.3, total: 924_988.79 };

describe('amortizedPayment', () => {
  it('is $1,199.10 for $200,000 at 6 % over 360 months, which the simulation repays in exactly 360', () => {
    // r = 0.005, (1+r)^360 = 6.02257521, factor r/(1-(1+r)^-360) = 0.0059955053: 1,199.101050.
    expect(Math.round(amortizedPayment(200_000, 6, 360) * 100) / 100).toBe(1199.1);
    expectRepaysAtTerm(200_000, fixed(6), 360, 1199.1);
    expect(amortizedPayment(3_600, 0, 36)).toBe(100);
  });
});

describe('compareRefinance', () => {
  it('a 15-year refinance at 6.5 % of a mortgage with 25 years left at 7 %: a higher payment, a far lower cost', () => {
    // 15 years at 6.5 %: r = 0.065/12, (1+r)^180 = 2.64420082, factor 0.0087110737: 3,800.171037 a month.
    const result = compared(account(), terms());
    expect(result).toEqual({
      currentMonthlyPayment: MORTGAGE_NOW.payment,
      currentRemainingMonths: 300,
      currentTotalCost: MORTGAGE_NOW.total,
      offerMonthlyPayment: 3800.17,
      offerTermMonths: 180,
      offerTotalCost: 684_030.79,
      fees: 0,
      monthlyChange: 716.87,
      totalCostChange: -240_958,
      verdict: 'lower_cost_higher_payment',
    });
    expectRepaysAtTerm(436_246, fixed(7), 300, result.currentMonthlyPayment);
    expectRepaysAtTerm(436_246, fixed(6.5), 180, result.offerMonthlyPayment);
  });

  it('a 30-year refinance at 6.53 % of the same balance: $317.32 a month less, $70,765.46 more in all', () => {
    // 30 years at 6.53 %: r = 0.0653/12, (1+r)^360 = 7.05466532, factor 0.0063404226: 2,765.984018 a month,
    // 317.311959 under today's 3,083.295977; 360 of them are 995,754.25 against 924,988.79 left to pay now.
    const result = compared(account(), terms({ apr: 6.53, termMonths: 360 }));
    expect(result).toMatchObject({
      offerMonthlyPayment: 2765.98,
      offerTotalCost: 995_754.25,
      monthlyChange: -317.32,
      totalCostChange: 70_765.46,
      verdict: 'lower_payment_higher_cost',
    });
    expectRepaysAtTerm(436_246, fixed(6.53), 360, result.offerMonthlyPayment);
  });

  it('the same rate over the 300 months left: $129.55 a month and $38,864.60 in all less', () => {
    // r = 0.0653/12, (1+r)^300 = 5.09405558, factor 0.0067708295: 2,953.747302 a month, 129.548675 under today's.
    const result = compared(account(), terms({ apr: 6.53, termMonths: 300 }));
    expect(result).toMatchObject({
      offerMonthlyPayment: 2953.75,
      offerTotalCost: 886_124.19,
      monthlyChange: -129.55,
      totalCostChange: -38_864.6,
      verdict: 'lower_payment_and_cost',
    });
    expectRepaysAtTerm(436_246, fixed(6.53), 300, result.offerMonthlyPayment);
  });

  it('a $5,000 card balance at 24.99 % moved to 0 % for 15 months then 19.99 %, with a 3 % transfer fee', () => {
    // Now: r = 0.2499/12, (1+r)^36 = 2.10013255, factor 0.0397545372: 198.772686 a month for 36 months.
    // Moved: $5,150 owed; after 15 months at 0 % it is 5,150 - 15P, which 21 months at 19.99 % must repay:
    // a2 = 0.0568244103, so P = 5,150 a2 / (1 + 15 a2) = 157.984809.
    const card = account({ kind: 'credit_card', balance: 5_000, apr: 24.99, remainingMonths: CARD_PAYOFF_MONTHS });
    const transfer = terms({
      apr: 19.99,
      termMonths: null,
      balanceTransferFeePercent: 3,
      introApr: { apr: 0, months: 15 },
    });
    const result = compared(card, transfer);
    expect(result).toEqual({
      currentMonthlyPayment: 198.77,
      currentRemainingMonths: 36,
      currentTotalCost: 7155.82,
      offerMonthlyPayment: 157.98,
      offerTermMonths: 36,
      offerTotalCost: 5687.45,
      fees: 150,
      monthlyChange: -40.79,
      totalCostChange: -1468.37,
      verdict: 'lower_payment_and_cost',
    });
    const rates = { apr: 19.99, intro: { apr: 0, months: 15 } };
    expectRepaysAtTerm(5_150, rates, 36, result.offerMonthlyPayment);
    // Nothing accrues in the intro months: the balance falls by the payment alone.
    expect(simulate(5_150, rates, 15, result.offerMonthlyPayment).balance).toBeCloseTo(5_150 - 15 * 157.98, 6);
  });

  it('finances an origination fee: $15,000 at 23.99 % over 48 months against 11.99 % with a 5 % fee', () => {
    // Borrowed: 15,000 / 0.95 = 15,789.47, so the proceeds pay off the balance. Now: factor 0.0325963074,
    // 488.944612 a month; offered: factor 0.0263289258 on 15,789.47, 415.719881 a month.
    const loan = account({ kind: 'personal_loan', balance: 15_000, apr: 23.99, remainingMonths: 48 });
    const result = compared(loan, terms({ apr: 11.99, termMonths: 48, originationFeePercent: 5 }));
    expect(result).toEqual({
      currentMonthlyPayment: 488.94,
      currentRemainingMonths: 48,
      currentTotalCost: 23_469.34,
      offerMonthlyPayment: 415.72,
      offerTermMonths: 48,
      offerTotalCost: 19_954.55,
      fees: 789.47,
      monthlyChange: -73.22,
      totalCostChange: -3514.79,
      verdict: 'lower_payment_and_cost',
    });
    expectRepaysAtTerm(15_000 / 0.95, fixed(11.99), 48, result.offerMonthlyPayment);
  });

  it('adds the annual fee once per started year of the term, to the total and the fees', () => {
    const card = account({ kind: 'credit_card', balance: 8_000, apr: 27.99, remainingMonths: CARD_PAYOFF_MONTHS });
    const result = compared(card, terms({ apr: 14.99, termMonths: 37, annualFee: 95 }));
    const payment = simulatedPayment(8_000, fixed(14.99), 37);
    const run = simulate(8_000, fixed(14.99), 37, payment, 95);
    expect(run.fees).toBe(4 * 95);
    expect(result.fees).toBe(380);
    expect(Math.abs(result.offerTotalCost - (run.paid + run.fees))).toBeLessThanOrEqual(0.005 + 1e-6);
  });

  it('claims nothing at a higher APR over the same months; a longer term there lowers only the payment', () => {
    // Now: $20,000 at 5.9 % over 48 months, 468.784172 a month; at 8.99 % over 48 months 497.605886.
    const auto = account({ kind: 'auto_loan', balance: 20_000, apr: 5.9, remainingMonths: 48 });
    expect(compareRefinance(auto, terms({ apr: 8.99, termMonths: 48 }))).toBeNull();
    expect(compareRefinance(auto, terms({ apr: 5.9, termMonths: 48 }))).toBeNull();
    // 72 months at 8.99 %: factor 0.0180205745, 360.411490 a month, 25,949.63 in all against 22,501.64.
    expect(compareRefinance(auto, terms({ apr: 8.99, termMonths: 72 }))).toMatchObject({
      currentMonthlyPayment: 468.78,
      offerMonthlyPayment: 360.41,
      monthlyChange: -108.37,
      totalCostChange: 3447.99,
      verdict: 'lower_payment_higher_cost',
    });
  });

  it('refuses terms it cannot price', () => {
    expect(() => compareRefinance(account(), terms({ termMonths: 0 }))).toThrow(RangeError);
    expect(() => compareRefinance(account({ remainingMonths: 2.5 }), terms())).toThrow(RangeError);
    expect(() => compareRefinance(account(), terms({ originationFeePercent: 100 }))).toThrow(RangeError);
    expect(() => compareRefinance(account(), terms({ balanceTransferFeePercent: -1 }))).toThrow(RangeError);
    expect(() => compareRefinance(account(), terms({ introApr: { apr: 0, months: -1 } }))).toThrow(RangeError);
  });

  it('claims a lower payment or cost only when the simulation finds one, and never claims nothing', () => {
    const percent = (max: number) => fc.integer({ min: 0, max: max * 100 }).map((cents) => cents / 100);
    const accountArbitrary = fc.record({
      accountId: fc.constant('acc_ffffffffffffffffffff'),
      kind: fc.constantFrom('credit_card', 'auto_loan', 'personal_loan', 'student_loan', 'mortgage') as fc.Arbitrary<
        RefinanceableAccount['kind']
      >,
      balance: fc.integer({ min: 100, max: 900_000 }),
      apr: percent(36),
      remainingMonths: fc.integer({ min: 1, max: 360 }),
    });
    const termsArbitrary = fc.record({
      apr: percent(36),
      termMonths: fc.option(fc.integer({ min: 1, max: 360 }), { freq: 4 }),
      originationFeePercent: fc.oneof(fc.constant(0), percent(10)),
      balanceTransferFeePercent: fc.oneof(fc.constant(0), percent(5)),
      introApr: fc.option(fc.record({ apr: percent(10), months: fc.integer({ min: 0, max: 24 }) }), { freq: 2 }),
      annualFee: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 695 })),
    });
    let claims = 0;
    fc.assert(
      fc.property(accountArbitrary, termsArbitrary, (a, t) => {
        const months = t.termMonths ?? CARD_PAYOFF_MONTHS;
        const financed = (a.balance / (1 - t.originationFeePercent / 100)) * (1 + t.balanceTransferFeePercent / 100);
        const rates = { apr: t.apr, intro: t.introApr };
        const nowPayment = simulatedPayment(a.balance, fixed(a.apr), a.remainingMonths);
        const offerPayment = simulatedPayment(financed, rates, months);
        const nowTotal = simulate(a.balance, fixed(a.apr), a.remainingMonths, nowPayment).paid;
        const offerRun = simulate(financed, rates, months, offerPayment, t.annualFee);
        const offerTotal = offerRun.paid + offerRun.fees;
        // Floating-point noise of a 360-month run on up to a million dollars, well under a cent.
        const noise = 1e-6 * Math.max(1, a.balance / 1_000);

        const result = compareRefinance(a, t);
        if (result === null) {
          // Nothing claimed: the simulation finds no dollar saved either, give or take the rounding to cents.
          expect(offerPayment - nowPayment).toBeGreaterThan(-1.01 - noise);
          expect(offerTotal - nowTotal).toBeGreaterThan(-1.01 - noise);
          return;
        }
        claims += 1;
        expect(result.monthlyChange <= -1 || result.totalCostChange <= -1).toBe(true);
        if (result.monthlyChange <= -1) expect(offerPayment - nowPayment).toBeLessThanOrEqual(-0.99 + noise);
        if (result.totalCostChange <= -1) expect(offerTotal - nowTotal).toBeLessThanOrEqual(-0.99 + noise);
        expect(Math.abs(result.currentMonthlyPayment - nowPayment)).toBeLessThanOrEqual(0.005 + noise);
        expect(Math.abs(result.offerMonthlyPayment - offerPayment)).toBeLessThanOrEqual(0.005 + noise);
        expect(Math.abs(result.currentTotalCost - nowTotal)).toBeLessThanOrEqual(0.005 + noise);
        expect(Math.abs(result.offerTotalCost - offerTotal)).toBeLessThanOrEqual(0.005 + noise);
        expect(Math.abs(result.fees - (financed - a.balance + offerRun.fees))).toBeLessThanOrEqual(0.005 + noise);
        expect(result.verdict).toBe(
          result.monthlyChange <= -1 && result.totalCostChange <= -1
            ? 'lower_payment_and_cost'
            : result.totalCostChange <= -1
              ? 'lower_cost_higher_payment'
              : 'lower_payment_higher_cost',
        );
      }),
      { seed: 20261129, numRuns: 3_000 },
    );
    // Most random pairs are a saving one way or the other: the claims side was exercised.
    expect(claims).toBeGreaterThan(1_000);
  });
});

describe('refinanceableAccounts', () => {
  const asOf = new Date('2026-11-15T12:00:00Z');
  const line = (overrides: Partial<Tradeline>): Tradeline => ({
    id: 'tl_1',
    lender: 'Contoso Auto Finance',
    kind: 'auto_loan',
    status: 'open',
    openedOn: '2024-11-03',
    closedOn: null,
    limitOrAmount: 30_000,
    balance: 20_000,
    latePayments: 0,
    monthlyPayment: 600,
    apr: 11.5,
    termMonths: 60,
    paymentHistory: [],
    ...overrides,
  });
  const fileOf = (tradelines: Tradeline[]) => ({ tradelines }) as CreditFile;
  const idOf = (id: string) => `acc_${id}`;

  it('keeps open accounts with a balance and an APR, loans with payments left; a card is compared over 36 months', () => {
    const accounts = refinanceableAccounts(
      fileOf([
        line({ id: 'loan' }),
        line({ id: 'dueLater', openedOn: '2024-11-20' }),
        line({ id: 'lateInMonth', openedOn: '2022-01-31' }),
        line({ id: 'lastPayment', openedOn: '2021-11-16' }),
        line({ id: 'paidOff', closedOn: '2026-01-02', status: 'paid_off' }),
        line({ id: 'chargedOff', status: 'charged_off' }),
        line({ id: 'noApr', apr: null }),
        line({ id: 'noTerm', termMonths: null }),
        line({ id: 'runOut', openedOn: '2020-01-01' }),
        line({ id: 'endsToday', openedOn: '2021-11-15' }),
        line({ id: 'empty', balance: 0 }),
        line({ id: 'card', kind: 'credit_card', termMonths: null, apr: 24.99, balance: 3_000, monthlyPayment: 92 }),
        line({ id: 'cardNoApr', kind: 'credit_card', termMonths: null, apr: null, balance: 3_000 }),
        line({ id: 'cardPaid', kind: 'credit_card', termMonths: null, apr: 24.99, balance: 0 }),
        line({ id: 'unreported', monthlyPayment: null }),
      ]),
      asOf,
      idOf,
    );
    expect(accounts).toEqual([
      // 24 payments made (2024-12-03 … 2026-11-03): 36 of 60 left.
      { accountId: 'acc_loan', kind: 'auto_loan', balance: 20_000, apr: 11.5, remainingMonths: 36 },
      // The 20th of this month has not come: 23 made.
      { accountId: 'acc_dueLater', kind: 'auto_loan', balance: 20_000, apr: 11.5, remainingMonths: 37 },
      // Due on the 28th (the 31st is not in every month): 57 made, the 58th not until 2026-11-28.
      { accountId: 'acc_lateInMonth', kind: 'auto_loan', balance: 20_000, apr: 11.5, remainingMonths: 3 },
      { accountId: 'acc_lastPayment', kind: 'auto_loan', balance: 20_000, apr: 11.5, remainingMonths: 1 },
      { accountId: 'acc_card', kind: 'credit_card', balance: 3_000, apr: 24.99, remainingMonths: CARD_PAYOFF_MONTHS },
      // The lender's payment is not what the comparison uses, so a loan reporting none is still compared.
      { accountId: 'acc_unreported', kind: 'auto_loan', balance: 20_000, apr: 11.5, remainingMonths: 36 },
    ]);
  });
});
