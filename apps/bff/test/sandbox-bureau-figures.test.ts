import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CreditFile, CreditSubject } from '../src/bureau/provider.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { SANDBOX_SSN } from '../src/bureau/sandbox/magic-ssn.ts';

// Partners' sandbox users, their identity questions and their alerts are built on these figures. The full report's
// fields (payment grids, collections, employers, …) come from random streams of their own so that none of them moves.

const person = (lastName: string, ssnLast4: string, dateOfBirth = '1985-04-12'): CreditSubject => ({
  userId: 'usr_any',
  firstName: 'Jane',
  lastName,
  ssnLast4,
  dateOfBirth,
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
});

/** Every figure of a file but the full report's: scores, accounts, inquiries, addresses, flags, the on-time share. */
const figuresOf = (file: CreditFile) => ({
  bureau: file.bureau,
  monthlyScores: file.monthlyScores,
  tradelines: file.tradelines.map(({ id, lender, kind, openedOn, closedOn, limitOrAmount, balance, latePayments }) => ({
    id,
    lender,
    kind,
    openedOn,
    closedOn,
    limitOrAmount,
    balance,
    latePayments,
  })),
  inquiries: file.inquiries,
  pastAddresses: file.pastAddresses,
  reportedAddresses: file.reportedAddresses,
  flags: file.flags,
  onTimePaymentPercent: file.onTimePaymentPercent,
});

/** The whole of figuresOf in 16 hex digits: any score, date or address that moves changes it. */
const digest = (file: CreditFile) =>
  createHash('sha256')
    .update(JSON.stringify(figuresOf(file)))
    .digest('hex')
    .slice(0, 16);

/** One line per account: what identity questions and alerts read from it. */
const accountLines = (file: CreditFile) =>
  file.tradelines.map(
    (t) =>
      `${t.id} ${t.kind} ${t.lender} ${t.openedOn}→${t.closedOn ?? 'open'} ${t.limitOrAmount}/${t.balance} late ${t.latePayments}`,
  );

const summaryOf = (file: CreditFile) => ({
  score: file.monthlyScores.at(-1),
  onTimePaymentPercent: file.onTimePaymentPercent,
  accounts: accountLines(file),
  inquiries: file.inquiries.length,
  digest: digest(file),
});

describe('sandbox files keep every figure they had', () => {
  it('Jane Doe', () => {
    expect(summaryOf(generateCreditFile(person('Doe', '1234'), new Date('2026-11-23T10:00:00.000Z')))).toEqual({
      score: { date: '2026-11-23', score: 685 },
      onTimePaymentPercent: 99.8,
      accounts: [
        'tl_1 credit_card Contoso Card Services 2013-03-15→open 16600/4171 late 0',
        'tl_2 credit_card Adventure Works Card Services 2015-07-03→open 13600/3146 late 0',
        'tl_3 credit_card Wide World Bank 2020-08-08→open 14000/3934 late 0',
        'tl_4 student_loan Graphic Design Institute Lending 2016-01-02→2026-01-02 31000/0 late 0',
        'tl_5 mortgage Margie’s Home Lending 2023-01-01→open 370000/343122 late 1',
      ],
      inquiries: 3,
      digest: 'd0992eb203863e64',
    });
  });

  it('a weak file with late payments and a closed card', () => {
    expect(summaryOf(generateCreditFile(person('Person146', '1234'), new Date('2026-11-23T10:00:00.000Z')))).toEqual({
      score: { date: '2026-11-23', score: 452 },
      onTimePaymentPercent: 98.7,
      accounts: [
        'tl_1 credit_card Contoso Card Services 2013-02-07→open 6700/4286 late 1',
        'tl_2 credit_card Wide World Bank 2014-05-27→open 5300/2923 late 2',
        'tl_3 credit_card Adventure Works Card Services 2015-10-21→open 7400/6811 late 1',
        'tl_4 credit_card Woodgrove Bank 2014-09-14→2023-04-08 5900/0 late 2',
        'tl_5 personal_loan Blue Yonder Personal Finance 2024-08-08→open 10000/6815 late 2',
        'tl_202506 credit_card Adventure Works Card Services 2025-06-12→open 6400/3648 late 0',
      ],
      inquiries: 5,
      digest: '6854571486c6ec5e',
    });
  });

  it('the every-alert story (1001)', () => {
    expect(
      summaryOf(generateCreditFile(person('Storyteller', '1001', '1971-02-13'), new Date('2026-03-10T08:00:00.000Z'))),
    ).toEqual({
      score: { date: '2026-03-10', score: 687 },
      onTimePaymentPercent: 99.5,
      accounts: [
        'tl_1 credit_card Fabrikam Credit Union 2001-10-20→open 6200/2473 late 3',
        'tl_2 credit_card Northwind Bank 2008-05-27→open 15500/5709 late 0',
        'tl_3 auto_loan Fourth Coffee Motors Finance 2018-04-21→2023-04-21 21500/0 late 0',
        'tl_202501 credit_card Contoso Card Services 2025-01-28→2025-06-24 9800/0 late 0',
        'tl_202507 credit_card Northwind Bank 2025-07-11→2025-12-09 16900/0 late 0',
        'tl_202601 credit_card Wide World Bank 2026-01-16→open 13600/7703 late 0',
      ],
      inquiries: 5,
      digest: '3e4827f7a0f0dada',
    });
  });

  it('the quiet story (1002)', () => {
    expect(
      summaryOf(generateCreditFile(person('Stillwater', '1002', '1966-09-30'), new Date('2027-05-05T12:00:00.000Z'))),
    ).toEqual({
      score: { date: '2027-05-05', score: 700 },
      onTimePaymentPercent: 99.7,
      accounts: [
        'tl_1 credit_card Northwind Bank 1997-10-20→open 12800/1215 late 1',
        'tl_2 credit_card Fabrikam Credit Union 2005-10-20→open 10100/892 late 1',
        'tl_3 credit_card Wide World Bank 1999-02-07→open 13300/1150 late 1',
        'tl_4 credit_card Adventure Works Card Services 2019-03-16→2024-10-14 12000/0 late 0',
      ],
      inquiries: 2,
      digest: 'f75bd26ce7fc19f9',
    });
  });

  it('300 people and the stories, each as of four days', () => {
    const people = [
      ...Array.from({ length: 300 }, (_, i) =>
        person(`Person${i}`, String(1000 + ((i * 37) % 9000)).padStart(4, '0'), `19${40 + (i % 60)}-0${1 + (i % 9)}-1${i % 9}`),
      ),
      ...['1001', '1002', '1003'].map((ssn) => person('Storyteller', ssn, '1979-11-23')),
    ];
    const days = ['2024-06-30T12:00:00Z', '2025-01-01T00:00:00Z', '2026-02-14T09:00:00Z', '2028-09-03T18:00:00Z'];
    const all = createHash('sha256');
    for (const subject of people) for (const day of days) all.update(digest(generateCreditFile(subject, new Date(day))));
    expect(all.digest('hex').slice(0, 16)).toBe('4c0c0a88c444021b');
  });
});

describe('sandbox loans follow their amortization schedule', () => {
  /** Month by month at the loan's APR, each month's interest added and the payment taken off. */
  const owedAfter = (principal: number, apr: number, months: number, payment: number) => {
    let balance = principal;
    for (let month = 0; month < months; month++) balance += (balance * apr) / 1200 - payment;
    return balance;
  };
  /** What is owed after the last month falls linearly with the payment: two runs give the one that leaves nothing. */
  const levelPayment = (principal: number, apr: number, months: number) => {
    const unpaid = owedAfter(principal, apr, months, 0);
    return unpaid / (unpaid - owedAfter(principal, apr, months, 1));
  };
  /** The payments due by `today`: one a month after opening, on the opening day or the 28th when that is later. */
  const paymentsDue = (openedOn: string, termMonths: number, today: string) => {
    const [year, month, day] = openedOn.split('-').map(Number) as [number, number, number];
    let due = 0;
    for (let k = 1; k <= termMonths; k++) {
      if (new Date(Date.UTC(year, month - 1 + k, Math.min(28, day))).toISOString().slice(0, 10) <= today) due += 1;
    }
    return due;
  };

  it('owes what the schedule leaves, so the level payment of that over the months left is the payment reported', () => {
    const people = Array.from({ length: 200 }, (_, i) =>
      person(`Person${i}`, i % 4 === 0 ? SANDBOX_SSN.costlyCreditStory : '1234', `19${40 + (i % 60)}-0${1 + (i % 9)}-1${i % 9}`),
    );
    const days = ['2025-01-01T00:00:00Z', '2026-11-23T10:00:00Z', '2029-06-15T12:00:00Z'];
    let loans = 0;
    for (const subject of people) {
      for (const day of days) {
        for (const t of generateCreditFile(subject, new Date(day)).tradelines) {
          if (t.kind === 'credit_card' || t.status !== 'open') continue;
          loans += 1;
          const [apr, term] = [t.apr as number, t.termMonths as number];
          const paid = paymentsDue(t.openedOn, term, day.slice(0, 10));
          expect(paid).toBeLessThan(term);
          const original = levelPayment(t.limitOrAmount, apr, term);
          expect(Math.abs(t.balance - owedAfter(t.limitOrAmount, apr, paid, original))).toBeLessThanOrEqual(0.5 + 1e-6);
          expect(Math.abs((t.monthlyPayment as number) - levelPayment(t.balance, apr, term - paid))).toBeLessThanOrEqual(1);
        }
      }
    }
    expect(loans).toBeGreaterThan(300);
  });
});
