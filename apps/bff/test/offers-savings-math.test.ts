import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amortizedPayment } from '../src/bureau/amortization.ts';
import type { CreditFile, Tradeline } from '../src/bureau/provider.ts';
import { CATALOGUE, type DatedOffer } from '../src/modules/offers/catalogue.ts';
import { rankForScore, rankForUser } from '../src/modules/offers/ranking.ts';
import {
  accountsWorthComparing,
  CARD_PAYOFF_MONTHS,
  offeredApr,
  type RefinanceableAccount,
  refinanceableAccounts,
  savingsFor,
} from '../src/modules/offers/savings.ts';

const entry = (offerId: string) => {
  const found = CATALOGUE.find((o) => o.offerId === offerId);
  if (!found) throw new Error(`${offerId} is not in the catalogue`);
  return found;
};
const AUTO_REFI = entry('off_fcuAutoRefi001'); // 4.99–12.49 %, from 640, $5,000–$60,000
const BALANCE_TRANSFER = entry('off_ctsPlatinumBT01'); // 18.24–29.24 %, from 700, $2,000–$20,000
const CONSOLIDATION = entry('off_fcuDebtConsol1'); // 8.49–17.99 %, from 680, cards and personal loans

const autoLoan = (overrides: Partial<RefinanceableAccount> = {}): RefinanceableAccount => ({
  accountId: 'acc_aaaaaaaaaaaaaaaaaaaa',
  kind: 'auto_loan',
  balance: 20_000,
  apr: 12,
  monthlyPayment: amortizedPayment(20_000, 12, 48),
  remainingMonths: 48,
  ...overrides,
});
/** A $9,000 card balance at 28.99 %, compared over CARD_PAYOFF_MONTHS. */
const costlyCard = (): RefinanceableAccount => ({
  accountId: 'acc_card000000000000000',
  kind: 'credit_card',
  balance: 9_000,
  apr: 28.99,
  monthlyPayment: amortizedPayment(9_000, 28.99, CARD_PAYOFF_MONTHS),
  remainingMonths: CARD_PAYOFF_MONTHS,
});

describe('amortizedPayment', () => {
  it('is the level payment of a loan, and the principal over the months at 0 %', () => {
    expect(amortizedPayment(10_000, 6, 60)).toBeCloseTo(193.33, 2);
    expect(amortizedPayment(200_000, 6.5, 360)).toBeCloseTo(1264.14, 2);
    expect(amortizedPayment(3_600, 0, 36)).toBe(100);
  });
});

describe('offeredApr', () => {
  it('runs from the highest APR at the offer’s minimum score to the lowest at 850, in cents of a percent', () => {
    expect(offeredApr(AUTO_REFI, 640)).toBe(12.49);
    expect(offeredApr(AUTO_REFI, 850)).toBe(4.99);
    expect(offeredApr(AUTO_REFI, 745)).toBe(8.74);
    expect(offeredApr(AUTO_REFI, 700)).toBe(Math.round((12.49 - 7.5 * (60 / 210)) * 100) / 100);
  });

  it('never leaves the offer’s range, and falls as the score rises', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CATALOGUE), fc.integer({ min: 300, max: 850 }), (offer, score) => {
        const apr = offeredApr(offer, score);
        expect(apr).toBeGreaterThanOrEqual(offer.apr.min);
        expect(apr).toBeLessThanOrEqual(offer.apr.max);
        if (score < 850) expect(offeredApr(offer, score + 1)).toBeLessThanOrEqual(apr);
      }),
    );
  });
});

describe('savingsFor', () => {
  it('prices a loan: today’s payment less the balance amortized at the offered APR over the months left', () => {
    const account = autoLoan();
    const monthly = account.monthlyPayment - amortizedPayment(20_000, 8.74, 48);
    expect(savingsFor(AUTO_REFI, 745, [account])).toEqual({
      monthly: Math.round(monthly),
      total: Math.round(monthly * 48),
      comparedToAccountId: account.accountId,
      offeredApr: 8.74,
    });
  });

  it('prices a card balance over 36 months at each APR', () => {
    const card: RefinanceableAccount = {
      accountId: 'acc_cccccccccccccccccccc',
      kind: 'credit_card',
      balance: 6_000,
      apr: 27.49,
      monthlyPayment: amortizedPayment(6_000, 27.49, CARD_PAYOFF_MONTHS),
      remainingMonths: CARD_PAYOFF_MONTHS,
    };
    const apr = offeredApr(BALANCE_TRANSFER, 800);
    const monthly = card.monthlyPayment - amortizedPayment(6_000, apr, 36);
    expect(savingsFor(BALANCE_TRANSFER, 800, [card])).toEqual({
      monthly: Math.round(monthly),
      total: Math.round(monthly * 36),
      comparedToAccountId: card.accountId,
      offeredApr: apr,
    });
  });

  it('compares only the kinds the offer refinances, within its amounts, at a lower APR, saving $1 a month or more', () => {
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ kind: 'mortgage' })])).toBeNull();
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ balance: 4_999 })])).toBeNull();
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ balance: 60_001 })])).toBeNull();
    // The offered APR is no better than the loan's own.
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ apr: 8.74 })])).toBeNull();
    // Less than a dollar a month: a payment a few cents above the new one.
    const newPayment = amortizedPayment(20_000, 8.74, 48);
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ monthlyPayment: newPayment + 0.9 })])).toBeNull();
    expect(savingsFor(AUTO_REFI, 745, [autoLoan({ monthlyPayment: newPayment + 1 })])?.monthly).toBe(1);
    // New credit only: a rewards card refinances nothing.
    expect(savingsFor(entry('off_nwbCashBack001'), 800, [autoLoan({ kind: 'credit_card' })])).toBeNull();
    expect(savingsFor(AUTO_REFI, 745, [])).toBeNull();
  });

  it('picks the account it saves most on over the remaining term', () => {
    const short = autoLoan({ accountId: 'acc_short00000000000000', remainingMonths: 12 });
    const long = autoLoan({ accountId: 'acc_long000000000000000', remainingMonths: 60 });
    const card = costlyCard();
    expect(savingsFor(AUTO_REFI, 745, [short, long])?.comparedToAccountId).toBe(long.accountId);
    const consolidation = savingsFor(CONSOLIDATION, 760, [card, short]);
    expect(consolidation?.comparedToAccountId).toBe(card.accountId);
  });

  it('never claims a negative or sub-dollar saving, and the total is the monthly saving over the months left', () => {
    const account = fc.record({
      kind: fc.constantFrom('credit_card', 'auto_loan', 'personal_loan', 'student_loan', 'mortgage') as fc.Arbitrary<
        RefinanceableAccount['kind']
      >,
      balance: fc.integer({ min: 100, max: 900_000 }),
      apr: fc.double({ min: 0, max: 35, noNaN: true }),
      monthlyPayment: fc.double({ min: 1, max: 10_000, noNaN: true }),
      remainingMonths: fc.integer({ min: 1, max: 360 }),
      accountId: fc.constant('acc_ffffffffffffffffffff'),
    });
    fc.assert(
      fc.property(fc.constantFrom(...CATALOGUE), fc.integer({ min: 300, max: 850 }), account, (offer, score, a) => {
        const savings = savingsFor(offer, score, [a]);
        if (!savings) return;
        expect(offer.refinances).toContain(a.kind);
        expect(savings.monthly).toBeGreaterThanOrEqual(1);
        expect(savings.offeredApr).toBeLessThan(a.apr);
        expect(Math.abs(savings.total - savings.monthly * a.remainingMonths)).toBeLessThanOrEqual(a.remainingMonths);
      }),
    );
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

  it('keeps open accounts with a balance and an APR; loans with months left on their term', () => {
    const accounts = refinanceableAccounts(
      fileOf([
        line({ id: 'loan' }),
        line({ id: 'closed', closedOn: '2026-01-02', status: 'paid_off' }),
        line({ id: 'noApr', apr: null }),
        line({ id: 'noTerm', termMonths: null }),
        line({ id: 'runOut', openedOn: '2020-01-01' }),
        line({ id: 'empty', balance: 0 }),
        line({ id: 'card', kind: 'credit_card', termMonths: null, apr: 24.99, balance: 3_000, monthlyPayment: 92 }),
        line({ id: 'unreported', monthlyPayment: null }),
      ]),
      asOf,
      idOf,
    );
    expect(accounts.map((a) => a.accountId)).toEqual(['acc_loan', 'acc_card', 'acc_unreported']);
    expect(accounts[0]).toMatchObject({ monthlyPayment: 600, remainingMonths: 60 - 24 });
    // A card's payment now is its 36-month payoff, not the minimum due.
    expect(accounts[1]?.monthlyPayment).toBeCloseTo(amortizedPayment(3_000, 24.99, 36), 6);
    expect(accounts[1]?.remainingMonths).toBe(CARD_PAYOFF_MONTHS);
    // A loan whose lender reports no payment: the balance amortized at its own APR over the months left.
    expect(accounts[2]?.monthlyPayment).toBeCloseTo(amortizedPayment(20_000, 11.5, 36), 6);
  });
});

describe('rankForUser', () => {
  const offers: DatedOffer[] = CATALOGUE.filter((o) => o.expiresInMonths > 0).map((o) => ({
    ...o,
    expiresAt: new Date('2030-01-01T00:00:00Z'),
  }));

  it('is the score’s order when nothing can be refinanced', () => {
    expect(rankForUser(offers, 720, [])).toEqual(rankForScore(offers, 720));
  });

  it('puts pre-qualified offers with savings first, largest total first, the rest in the score’s order', () => {
    const card = costlyCard();
    const ranked = rankForUser(offers, 760, [autoLoan(), card]);
    const withSavings = ranked.filter((r) => r.estimatedSavings);
    expect(withSavings.map((r) => r.offer.offerId).sort()).toEqual(
      ['off_fcuAutoRefi001', 'off_ctsPlatinumBT01', 'off_fcuDebtConsol1'].sort(),
    );
    expect(ranked.slice(0, withSavings.length)).toEqual(withSavings);
    const totals = withSavings.map((r) => r.estimatedSavings?.total ?? 0);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const rest = ranked.slice(withSavings.length).map((r) => r.offer.offerId);
    const scoreOrder = rankForScore(offers, 760).map((r) => r.offer.offerId);
    expect(rest).toEqual(scoreOrder.filter((id) => rest.includes(id)));
    expect(ranked.filter((r) => !r.preQualified).every((r) => r.estimatedSavings === null)).toBe(true);
  });

  it('gives no savings on an offer the score does not pre-qualify for', () => {
    // 650 is under the balance-transfer card's 700 and the consolidation loan's 680.
    const card: RefinanceableAccount = { ...autoLoan(), kind: 'credit_card', balance: 9_000, apr: 29.99, remainingMonths: 36 };
    expect(rankForUser(offers, 650, [card]).every((r) => r.estimatedSavings === null)).toBe(true);
  });
});

describe('accountsWorthComparing', () => {
  const offers: DatedOffer[] = CATALOGUE.map((o) => ({ ...o, expiresAt: new Date('2030-01-01T00:00:00Z') }));
  const accountArbitrary = fc.record({
    accountId: fc.constantFrom('acc_1', 'acc_2', 'acc_3'),
    kind: fc.constantFrom('credit_card', 'auto_loan', 'personal_loan', 'student_loan', 'mortgage') as fc.Arbitrary<
      RefinanceableAccount['kind']
    >,
    balance: fc.integer({ min: 100, max: 900_000 }),
    apr: fc.double({ min: 0, max: 35, noNaN: true }),
    monthlyPayment: fc.double({ min: 1, max: 10_000, noNaN: true }),
    remainingMonths: fc.integer({ min: 1, max: 360 }),
  });

  it('drops only accounts no offer saves on at any score: the ranking is the same without them', () => {
    fc.assert(
      fc.property(fc.array(accountArbitrary, { maxLength: 4 }), fc.integer({ min: 300, max: 850 }), (accounts, score) => {
        expect(rankForUser(offers, score, accountsWorthComparing(CATALOGUE, accounts))).toEqual(
          rankForUser(offers, score, accounts),
        );
      }),
    );
  });

  it('drops a loan at a rate no offer beats, and a card no offer can take', () => {
    expect(accountsWorthComparing(CATALOGUE, [autoLoan({ apr: 3 })])).toEqual([]);
    expect(accountsWorthComparing(CATALOGUE, [autoLoan({ balance: 100 })])).toEqual([]);
    expect(accountsWorthComparing(CATALOGUE, [autoLoan()])).toEqual([autoLoan()]);
  });
});
