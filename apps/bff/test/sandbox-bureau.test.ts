import { RATING_BANDS, ratingForScore } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { creditFactors, fileFigures } from '../src/bureau/factors.ts';
import { generateCreditFile } from '../src/bureau/sandbox/generate-file.ts';
import { SandboxBureau } from '../src/bureau/sandbox/sandbox-bureau.ts';
import { sandboxSubject as subject } from './helpers/sandbox-subject.ts';

const asOf = new Date('2026-11-23T10:00:00.000Z');
/** Jane Doe's file below. If these move, every partner's sandbox users change: bump the seed version on purpose only. */
const PINNED = { bureau: 'Experian', score: 685 };

/** 300 different people, for properties that must hold for every file. */
const population = Array.from({ length: 300 }, (_, i) =>
  subject({ lastName: `Person${i}`, dateOfBirth: `19${String(40 + (i % 60)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 9}` }),
);

describe('sandbox bureau', () => {
  it('derives the same file from the same enrolment, on any instance and machine', async () => {
    const first = await new SandboxBureau().pullCreditFile(subject(), asOf);
    const again = await new SandboxBureau().pullCreditFile(subject({ userId: 'usr_other', firstName: ' JANE ' }), asOf);
    expect(again).toEqual(first);
    expect(first.status === 'ok' && first.file.bureau).toBe(PINNED.bureau);
    expect(first.status === 'ok' && first.file.monthlyScores.at(-1)).toEqual({ date: '2026-11-23', score: PINNED.score });
    const other = await new SandboxBureau().pullCreditFile(subject({ ssnLast4: '4321' }), asOf);
    expect(other).not.toEqual(first);
  });

  it('keeps the file’s shape as the person ages: a year later it is the same file plus what happened since', () => {
    // Born in mid-June: the two pulls straddle a birthday, which must not redraw the file.
    const young = subject({ dateOfBirth: '2000-06-15' });
    const before = generateCreditFile(young, new Date('2026-06-14T12:00:00Z'));
    const after = generateCreditFile(young, new Date('2027-06-14T12:00:00Z'));
    expect(after.bureau).toBe(before.bureau);
    expect(after.pastAddresses).toEqual(before.pastAddresses);
    const opened = (f: typeof before) =>
      f.tradelines.map((t) => `${t.id}:${t.kind}:${t.lender}:${t.limitOrAmount}:${t.openedOn}`);
    expect(opened(after).slice(0, before.tradelines.length)).toEqual(opened(before));
    // The twelve months both histories cover are dated alike and scored alike.
    expect(after.monthlyScores.slice(0, 12)).toEqual(before.monthlyScores.slice(12));
    const monthEnd = generateCreditFile(young, new Date('2026-12-31T08:00:00Z'));
    expect(monthEnd.monthlyScores.at(-1)?.date).toBe('2026-12-31');
    expect(monthEnd.monthlyScores.at(-2)?.date).toBe('2026-11-28');
  });

  it('gives 24 monthly scores in VantageScore 3.0’s range, the last one dated today', () => {
    for (const person of population) {
      const file = generateCreditFile(person, asOf);
      expect(file.monthlyScores).toHaveLength(24);
      expect(file.monthlyScores.at(-1)?.date).toBe('2026-11-23');
      expect(file.monthlyScores[0]?.date).toBe('2024-12-23');
      for (const { score } of file.monthlyScores) expect(score >= 300 && score <= 850).toBe(true);
    }
  });

  it('spreads people over every rating band, with figures that agree with the score', () => {
    const byRating = new Map<string, number[]>();
    for (const person of population) {
      const file = generateCreditFile(person, asOf);
      const score = file.monthlyScores.at(-1)?.score as number;
      const utilization = fileFigures(file, asOf).utilizationPercent;
      byRating.set(ratingForScore(score), [...(byRating.get(ratingForScore(score)) ?? []), utilization]);
    }
    const mean = (xs: number[] = []) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect([...byRating.keys()].sort()).toEqual(RATING_BANDS.map((b) => b.rating).sort());
    expect(mean(byRating.get('excellent'))).toBeLessThan(mean(byRating.get('good')));
    expect(mean(byRating.get('good'))).toBeLessThan(mean(byRating.get('fair')));
    expect(mean(byRating.get('fair'))).toBeLessThan(mean(byRating.get('poor')));
  });

  it('rates factor impact from the figures: high utilisation is never low impact', () => {
    for (const person of population) {
      const file = generateCreditFile(person, asOf);
      const figures = fileFigures(file, asOf);
      const factors = creditFactors(file, asOf);
      expect(factors.map((f) => f.code)).toEqual([
        'PAYMENT_HISTORY',
        'CREDIT_UTILIZATION',
        'CREDIT_AGE',
        'CREDIT_MIX',
        'NEW_CREDIT',
      ]);
      const utilization = factors.find((f) => f.code === 'CREDIT_UTILIZATION');
      expect(utilization?.details).toEqual({
        utilizationPercent: figures.utilizationPercent,
        totalBalance: figures.totalBalance,
        totalLimit: figures.totalLimit,
      });
      if (figures.utilizationPercent >= 50) expect(utilization?.impact).toBe('high');
      if (figures.utilizationPercent < 30) expect(utilization?.impact).toBe('low');
      const newCredit = factors.find((f) => f.code === 'NEW_CREDIT');
      expect(newCredit?.details).toEqual({ recentInquiries: figures.recentInquiries });
      if (figures.recentInquiries >= 4) expect(newCredit?.impact).toBe('high');
      if (figures.latePayments > 0) expect(factors[0]?.impact).not.toBe('low');
      for (const f of factors) expect(f.score >= 0 && f.score <= 100).toBe(true);
    }
  });

  it('fills the file with what alerts and identity questions draw on', () => {
    const file = generateCreditFile(subject(), asOf);
    expect(file.tradelines.length).toBeGreaterThanOrEqual(2);
    expect(file.tradelines.some((t) => t.kind === 'credit_card')).toBe(true);
    expect(file.pastAddresses.length).toBeGreaterThanOrEqual(1);
    expect(file.pastAddresses.every((a) => a.city !== 'Springfield')).toBe(true);
    for (const line of file.tradelines) expect(line.balance).toBeLessThanOrEqual(line.limitOrAmount * 1.01);
  });

  it('answers a frozen file for ssn 0000, yet still serves identity verification', async () => {
    const bureau = new SandboxBureau();
    const frozen = subject({ ssnLast4: '0000' });
    expect(await bureau.pullCreditFile(frozen, asOf)).toEqual({ status: 'frozen' });
    expect((await bureau.pullIdentityFile(frozen, asOf)).tradelines.length).toBeGreaterThan(0);
    expect(bureau.alwaysFailsVerification(subject({ ssnLast4: '9999' }))).toBe(true);
    expect(bureau.alwaysFailsVerification(subject())).toBe(false);
  });
});
