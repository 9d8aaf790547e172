import { describe, expect, it } from 'vitest';
import { amortizedPayment } from '../src/bureau/amortization.ts';
import type { CreditFile, CreditSubject, PaymentStatus, Tradeline } from '../src/bureau/provider.ts';
import { PAYMENT_HISTORY_MONTHS, WEAK_FILE_QUALITY } from '../src/bureau/sandbox/account-details.ts';
import { baseFile } from '../src/bureau/sandbox/base-file.ts';
import { addMonths, monthIndexOfDay } from '../src/bureau/sandbox/calendar.ts';
import { COLLECTION_AGENCIES, EMPLOYERS } from '../src/bureau/sandbox/directory.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { SANDBOX_SSN, storyOf } from '../src/bureau/sandbox/magic-ssn.ts';
import { sandboxSubject as subject } from './helpers/sandbox-subject.ts';

// The full report's fields of sandbox files: payment grids, APRs and payments, statuses, collections, bankruptcies,
// soft inquiries and the personal details, checked for agreeing with the figures the file already had.

/** 150 different people, stories among them. */
const population = Array.from({ length: 150 }, (_, i) =>
  subject({
    lastName: `Person${i}`,
    dateOfBirth: `19${String(40 + (i % 60)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 9}`,
    ssnLast4: i % 25 === 0 ? ['1001', '1002', '1003'][(i / 25) % 3] : '1234',
  }),
);
const DAYS = ['2025-02-10T12:00:00.000Z', '2026-11-23T10:00:00.000Z', '2028-03-01T00:00:00.000Z'].map((d) => new Date(d));

/** The weak files among 7,000 people: the only ones with collections, written-off cards and bankruptcies. */
const weakPeople = Array.from({ length: 7000 }, (_, i) => subject({ lastName: `Person${i}` })).filter(
  (person) => baseFile(person, 'ordinary').quality < WEAK_FILE_QUALITY,
);

const LATE: readonly PaymentStatus[] = ['30', '60', '90', '120'];
const lateMarks = (t: Tradeline) => t.paymentHistory.filter((month) => LATE.includes(month)).length;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The day a file is as of: the day asked, but for the quiet story, whose file stands still at the anchor. */
const fileDayOf = (person: CreditSubject, day: Date): string =>
  storyOf(person.ssnLast4) === 'quiet' && day > new Date('2025-01-01T00:00:00Z') ? '2025-01-01' : isoDay(day);

/** Every account of every file of the population on each of DAYS, with the day its file is as of. */
const everyLine = function* () {
  for (const person of population) {
    for (const day of DAYS) {
      for (const line of generateCreditFile(person, day).tradelines) yield { today: fileDayOf(person, day), line };
    }
  }
};

describe('payment history', () => {
  it('grades the last 24 months of every account, no_data before it opened and after it closed', () => {
    for (const { today: day, line } of everyLine()) {
      const today = monthIndexOfDay(day);
      expect(line.paymentHistory).toHaveLength(PAYMENT_HISTORY_MONTHS);
      const opened = monthIndexOfDay(line.openedOn);
      const closed = line.closedOn === null ? Infinity : monthIndexOfDay(line.closedOn);
      const unreported = Array.from({ length: PAYMENT_HISTORY_MONTHS }, (_, i) => today - i < opened || today - i > closed);
      expect(line.paymentHistory.map((status) => status === 'no_data')).toEqual(unreported);
      expect(lateMarks(line)).toBeLessThanOrEqual(line.latePayments);
    }
  });

  it('shows each late payment of a month in that month, and a later file is the same grid moved on', () => {
    let latePaid = 0;
    for (const person of population.slice(0, 80)) {
      let previous: CreditFile | undefined;
      // The 28th, late: every month's events (on its reporting day, 1–28) are in.
      for (let month = 0; month < 30; month++) {
        const file = generateCreditFile(person, new Date(`${addMonths('2025-01-28', month)}T23:00:00.000Z`));
        if (storyOf(person.ssnLast4) === 'quiet') break;
        for (const line of file.tradelines) {
          const before = previous?.tradelines.find((t) => t.id === line.id);
          if (!before) continue;
          const paidLate = line.latePayments - before.latePayments;
          expect(paidLate === 1 ? LATE : ['ok', 'no_data'], `${person.lastName} ${line.id}`).toContain(line.paymentHistory[0]);
          latePaid += paidLate;
          if (line.closedOn === null) expect(line.paymentHistory.slice(1)).toEqual(before.paymentHistory.slice(0, -1));
        }
        previous = file;
      }
    }
    expect(latePaid).toBeGreaterThan(10);
  });

  it('marks the every-alert story’s late payment every six months, on its oldest open card', () => {
    const file = generateCreditFile(subject({ ssnLast4: SANDBOX_SSN.everyAlertStory }), new Date('2026-11-28T23:00:00Z'));
    const oldest = file.tradelines[0] as Tradeline;
    const now = monthIndexOfDay('2026-11');
    for (let month = 0; month <= now; month++) {
      // Round month 1 of each six (February, August) is the late payment's.
      expect(oldest.paymentHistory[now - month], `month ${month}`).toBe(month % 6 === 1 ? '30' : 'ok');
    }
  });

  it('gives each late payment of the base file a month of its own between the account’s opening and the anchor', () => {
    let lates = 0;
    let dated = 0;
    for (let i = 0; i < 1000; i++) {
      for (const account of baseFile(subject({ lastName: `Person${i}` }), 'ordinary').accounts) {
        const months = account.lateMonths.map(monthIndexOfDay);
        expect(new Set(months).size).toBe(months.length);
        expect(months).toEqual([...months].sort((a, b) => a - b));
        const last = Math.min(-1, ...[account.closedOn, account.payoffOn].filter((d) => d !== null).map(monthIndexOfDay));
        for (const month of months) expect(month >= monthIndexOfDay(account.openedOn) && month <= last).toBe(true);
        lates += account.latePayments;
        dated += months.length;
      }
    }
    expect(dated).toBeLessThanOrEqual(lates);
    // An account opened and closed within a month or two has no month for a second late payment.
    expect(dated / lates).toBeGreaterThan(0.999);
  });
});

describe('terms, payments and status', () => {
  const TERMS = { auto_loan: 60, student_loan: 120, mortgage: 360, personal_loan: 60 } as const;
  const APRS = {
    credit_card: [17, 30],
    auto_loan: [5, 15],
    student_loan: [4, 8],
    mortgage: [3, 7.5],
    personal_loan: [8, 30],
  } as const;

  it('prices each account by kind and file, and derives the monthly payment from balance, APR and term', () => {
    for (const { line } of everyLine()) {
      const apr = line.apr as number;
      expect(apr >= APRS[line.kind][0] && apr <= APRS[line.kind][1], `${line.kind} ${apr}`).toBe(true);
      expect(Number(apr.toFixed(2))).toBe(apr);
      if (line.kind === 'credit_card') {
        expect(line.termMonths).toBeNull();
        const due = Math.min(line.balance, Math.max(25, line.balance * 0.01 + (line.balance * apr) / 1200));
        expect(line.monthlyPayment).toBe(line.closedOn === null && line.balance > 0 ? Math.round(due) : null);
      } else {
        expect(line.termMonths).toBe(TERMS[line.kind]);
        const payment = Math.round(amortizedPayment(line.limitOrAmount, apr, TERMS[line.kind]));
        expect(line.monthlyPayment).toBe(line.closedOn === null && line.balance > 0 ? payment : null);
      }
    }
  });

  it('says open while closedOn is null, paid_off for a loan closed at the end of its term, charged_off with a charge-off month', () => {
    const statuses = new Set<string>();
    const lines = [...everyLine()];
    for (const person of weakPeople) {
      for (const line of generateCreditFile(person, DAYS[1] as Date).tradelines) lines.push({ today: '2026-11-23', line });
    }
    for (const { line, today } of lines) {
      statuses.add(line.status);
      expect(line.status === 'open').toBe(line.closedOn === null);
      if (line.status === 'paid_off') {
        expect(line.kind).not.toBe('credit_card');
        expect(line.closedOn).toBe(addMonths(line.openedOn, line.termMonths as number));
      }
      if (line.status === 'charged_off') {
        expect(line.kind).toBe('credit_card');
        const monthsAgo = monthIndexOfDay(today) - monthIndexOfDay(line.closedOn as string);
        if (monthsAgo < PAYMENT_HISTORY_MONTHS) expect(line.paymentHistory[monthsAgo]).toBe('charge_off');
      } else {
        expect(line.paymentHistory).not.toContain('charge_off');
      }
    }
    expect([...statuses].sort()).toEqual(['charged_off', 'closed', 'open', 'paid_off']);
  });
});

describe('derogatory records', () => {
  it('gives collections to weak files only, bankruptcies to the weakest, never to the quiet story', () => {
    let [collections, bankruptcies] = [0, 0];
    for (const person of [...population, ...weakPeople]) {
      const { quality } = baseFile(person, storyOf(person.ssnLast4));
      for (const day of DAYS) {
        const file = generateCreditFile(person, day);
        const today = isoDay(day);
        if (quality >= WEAK_FILE_QUALITY || storyOf(person.ssnLast4) === 'quiet') expect(file.collections).toEqual([]);
        if (quality >= 0.3) expect(file.publicRecords).toEqual([]);
        expect(file.collections.length).toBeLessThanOrEqual(2);
        for (const c of file.collections) {
          expect(COLLECTION_AGENCIES).toContain(c.agency);
          expect(c.reportedOn < '2025-01-01' && c.reportedOn <= today).toBe(true);
          expect(c.balance).toBe(c.paidOn === null ? c.originalAmount : 0);
          if (c.paidOn !== null) expect(c.paidOn > c.reportedOn && c.paidOn <= today).toBe(true);
        }
        for (const p of file.publicRecords) {
          expect(p.filedOn >= '2018-01-01' && p.filedOn <= '2023-01-01').toBe(true);
          expect(p.resolvedOn === null).toBe(p.status === 'filed');
          if (p.resolvedOn !== null) expect(p.resolvedOn <= today).toBe(true);
          expect(p.court).toMatch(/^U\.S\. Bankruptcy Court, /);
        }
        collections += file.collections.length;
        bankruptcies += file.publicRecords.length;
      }
    }
    expect(collections).toBeGreaterThan(0);
    expect(bankruptcies).toBeGreaterThan(0);
  });
});

describe('soft inquiries and personal details', () => {
  it('lists one to four soft inquiries of the two years to the file day, oldest first, and keeps them as the file ages', () => {
    for (const person of population) {
      const [early, later] = [DAYS[1] as Date, DAYS[2] as Date].map((day) => generateCreditFile(person, day)) as [
        CreditFile,
        CreditFile,
      ];
      for (const [file, day] of [
        [early, DAYS[1] as Date],
        [later, DAYS[2] as Date],
      ] as const) {
        const today = fileDayOf(person, day);
        expect(file.softInquiries.length >= 1 && file.softInquiries.length <= 4).toBe(true);
        const dates = file.softInquiries.map((i) => i.date);
        expect(dates).toEqual([...dates].sort());
        const since = isoDay(new Date(Date.parse(`${today}T00:00:00Z`) - 730 * 86_400_000));
        for (const date of dates) expect(date > since && date <= today).toBe(true);
      }
      if (storyOf(person.ssnLast4) === 'quiet') continue;
      // What both files can hold (after the later's two years began, up to the earlier's day) is the same.
      const overlap = (file: CreditFile) => file.softInquiries.filter((i) => i.date > '2026-03-01' && i.date <= '2026-11-23');
      expect(overlap(later)).toEqual(overlap(early));
    }
  });

  it('reports the name as matched, its initial form, the year of birth and one or two employers, oldest first', () => {
    const file = generateCreditFile(subject({ firstName: ' JANE ', lastName: 'doe' }), DAYS[1] as Date);
    expect(file.names).toEqual(['Jane Doe', 'J Doe']);
    expect(generateCreditFile(subject({ firstName: 'mary-ann', lastName: "o'neil" }), DAYS[1] as Date).names).toEqual([
      "Mary-Ann O'Neil",
      "M O'Neil",
    ]);
    expect(file.yearOfBirth).toBe(1985);
    for (const person of population) {
      const employers = generateCreditFile(person, DAYS[1] as Date).employers;
      expect(employers.length >= 1 && employers.length <= 2).toBe(true);
      for (const e of employers) expect(EMPLOYERS).toContain(e.name);
      expect(employers.map((e) => e.reportedOn)).toEqual(employers.map((e) => e.reportedOn).sort());
      expect(generateCreditFile(person, DAYS[2] as Date).employers).toEqual(employers);
    }
  });
});

describe('determinism', () => {
  it('keeps the quiet story’s report as it was at the anchor, however much later it is asked for', () => {
    const quiet = subject({ ssnLast4: SANDBOX_SSN.quietStory });
    const { monthlyScores: _first, ...atAnchor } = generateCreditFile(quiet, new Date('2025-01-01T00:00:00Z'));
    for (const iso of ['2025-02-01T00:00:00Z', '2026-06-15T12:00:00Z', '2030-12-31T23:00:00Z']) {
      const { monthlyScores: _scores, ...later } = generateCreditFile(quiet, new Date(iso));
      expect(later).toEqual(atAnchor);
    }
    expect(atAnchor.collections).toEqual([]);
    expect(atAnchor.publicRecords).toEqual([]);
  });

  it('derives the same report from the same identity, and pins Jane Doe’s', () => {
    const asOf = new Date('2026-11-23T10:00:00.000Z');
    const file = generateCreditFile(subject(), asOf);
    expect(generateCreditFile(subject({ userId: 'usr_other', firstName: ' JANE ' }), asOf)).toEqual(file);
    // If these move, every partner's sandbox reports change: change the report stream's version on purpose only.
    expect(file.tradelines.map((t) => [t.id, t.status, t.apr, t.monthlyPayment])).toEqual([
      ['tl_1', 'open', 19.99, 111],
      ['tl_2', 'open', 20.49, 85],
      ['tl_3', 'open', 20.49, 107],
      ['tl_4', 'paid_off', 4.8, null],
      ['tl_5', 'open', 3.9, 1745],
    ]);
    expect(file.tradelines[4]?.paymentHistory.slice(0, 6)).toEqual(['ok', 'ok', 'ok', 'ok', '30', 'ok']);
    expect(file.softInquiries).toEqual([
      { source: 'Wide World Bank (pre-approval)', date: '2026-03-13' },
      { source: 'Consumer disclosure (own check)', date: '2026-10-27' },
    ]);
    expect(file.employers).toEqual([{ name: 'Tailspin Toys', reportedOn: '2018-10-05' }]);
  });
});
