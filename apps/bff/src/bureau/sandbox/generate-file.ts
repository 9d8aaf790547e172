import { CREDIT_BUREAUS, SCORE_MAX, SCORE_MIN } from '@credit/contract';
import { SeededRandom } from '../../lib/seeded-random.ts';
import { daysBefore, isoDate, monthsBefore, round1, yearsSince } from '../dates.ts';
import type { CreditFile, CreditSubject, Inquiry, MonthlyScore, PastAddress, Tradeline, TradelineKind } from '../provider.ts';
import { CITIES, INQUIRY_SOURCES, LENDERS, STREET_NAMES, STREET_SUFFIXES } from './directory.ts';

export const HISTORY_MONTHS = 24;

/** The day a person's age is taken at to shape their file, so the file does not change as they age. */
const SHAPE_REFERENCE_DATE = new Date('2026-01-01T00:00:00.000Z');

/** The identity fields the file derives from, normalised so cosmetic differences do not change it. */
export const subjectSeed = (s: CreditSubject): string =>
  [
    s.firstName.trim().toLowerCase(),
    s.lastName.trim().toLowerCase(),
    s.dateOfBirth,
    s.ssnLast4,
    s.address.zipCode.slice(0, 5),
  ].join('|');

const clampScore = (score: number) => Math.max(SCORE_MIN, Math.min(SCORE_MAX, Math.round(score)));

/** 24 monthly scores ending at `current`, drifting the way real scores do (a trend plus month-to-month noise). */
const monthlyScores = (rng: SeededRandom, current: number, asOf: Date): MonthlyScore[] => {
  const drift = rng.int(-3, 4);
  const scores = [current];
  for (let i = 1; i < HISTORY_MONTHS; i++) {
    const newer = scores[0] as number;
    scores.unshift(clampScore(newer - drift + rng.int(-7, 7)));
  }
  // The current score is dated today; earlier ones on the same day of past months (28th at most).
  return scores.map((score, i) => ({
    date: i === HISTORY_MONTHS - 1 ? isoDate(asOf) : monthsBefore(asOf, HISTORY_MONTHS - 1 - i),
    score,
  }));
};

const roundTo = (value: number, step: number) => Math.max(step, Math.round(value / step) * step);

/** Original amounts by kind, scaled by how creditworthy the person is (0–1). */
const installmentAmount = (rng: SeededRandom, kind: TradelineKind, quality: number): number => {
  const ranges: Partial<Record<TradelineKind, [number, number, number]>> = {
    auto_loan: [12_000, 48_000, 500],
    student_loan: [8_000, 65_000, 500],
    mortgage: [140_000, 560_000, 5_000],
    personal_loan: [2_000, 25_000, 500],
  };
  const [min, max, step] = ranges[kind] ?? [1_000, 10_000, 100];
  return roundTo(min + (max - min) * (0.3 * rng.next() + 0.7 * quality * rng.next()), step);
};

const tradelines = (rng: SeededRandom, quality: number, creditYears: number, asOf: Date): Tradeline[] => {
  const age = (years: number) => daysBefore(asOf, Math.round(years * 365.25));
  const oldest = round1(Math.max(1, Math.min(creditYears, 1 + creditYears * (0.35 + 0.6 * quality * rng.next()))));
  const kinds: TradelineKind[] = Array.from({ length: rng.int(2, 4) }, () => 'credit_card' as const);
  if (rng.next() < 0.6) kinds.push('auto_loan');
  if (creditYears < 22 && rng.next() < 0.5) kinds.push('student_loan');
  if (quality > 0.45 && creditYears > 8 && rng.next() < 0.6) kinds.push('mortgage');
  if (quality < 0.55 && rng.next() < 0.5) kinds.push('personal_loan');
  // Everyone the sandbox scores has at least one loan: identity questions need more than card facts.
  if (!kinds.some((kind) => kind !== 'credit_card')) kinds.push(quality < 0.5 ? 'personal_loan' : 'auto_loan');

  const utilization = Math.max(1, Math.min(97, rng.bell(92 - quality * 88, 10, 1, 97))) / 100;
  const lateBudget = quality > 0.78 ? 0 : rng.int(0, Math.round((1 - quality) * 10));
  const usedLenders = new Set<string>();
  const lines = kinds.map((kind, index): Tradeline => {
    const lender = rng.pick(LENDERS[kind].filter((l) => !usedLenders.has(l)));
    usedLenders.add(lender);
    const openedYears = index === 0 ? oldest : round1(0.3 + rng.next() * (oldest - 0.3));
    const late = index < lateBudget ? rng.int(1, 2) : 0;
    if (kind === 'credit_card') {
      const limit = roundTo((1_500 + 13_500 * quality) * (0.5 + rng.next()), 100);
      const closed = index > 1 && rng.next() < 0.25;
      return {
        id: `tl_${index + 1}`,
        lender,
        kind,
        openedOn: age(openedYears),
        closedOn: closed ? age(rng.next() * Math.min(openedYears, 3)) : null,
        limitOrAmount: limit,
        balance: closed ? 0 : Math.round(limit * utilization * (0.7 + 0.6 * rng.next())),
        latePayments: late,
      };
    }
    const amount = installmentAmount(rng, kind, quality);
    const termYears = kind === 'mortgage' ? 30 : kind === 'student_loan' ? 10 : 5;
    const paidOff = openedYears >= termYears;
    return {
      id: `tl_${index + 1}`,
      lender,
      kind,
      openedOn: age(openedYears),
      closedOn: paidOff ? age(openedYears - termYears) : null,
      limitOrAmount: amount,
      balance: paidOff ? 0 : Math.round(amount * (1 - openedYears / termYears) * (0.9 + 0.1 * rng.next())),
      latePayments: late,
    };
  });
  // Card balances were drawn around the target; rescale so the file's utilisation is the drawn one.
  const openCards = lines.filter((t) => t.kind === 'credit_card' && !t.closedOn);
  const limit = openCards.reduce((sum, t) => sum + t.limitOrAmount, 0);
  const balance = openCards.reduce((sum, t) => sum + t.balance, 0);
  if (balance > 0) for (const card of openCards) card.balance = Math.round((card.balance * limit * utilization) / balance);
  return lines;
};

const inquiries = (rng: SeededRandom, quality: number, asOf: Date): Inquiry[] => {
  const recent = Math.max(0, Math.min(8, Math.round((1 - quality) * 5 + rng.next() * 2 - 0.5)));
  const older = rng.int(0, 3);
  const dates = [
    ...Array.from({ length: recent }, () => rng.int(3, 360)),
    ...Array.from({ length: older }, () => rng.int(370, 720)),
  ].sort((a, b) => a - b);
  return dates.map((days) => ({ source: rng.pick(INQUIRY_SOURCES), date: daysBefore(asOf, days) }));
};

const pastAddresses = (rng: SeededRandom, creditYears: number, asOf: Date): PastAddress[] => {
  const count = rng.int(1, 3);
  // Drawn from the seed alone: an input outside the seed (the enrolment city) must not change the file.
  const cities = rng.sample(CITIES, count);
  let movedOutYearsAgo = round1(0.5 + rng.next() * Math.min(6, creditYears));
  return cities.map((place) => {
    const stayed = round1(1 + rng.next() * 5);
    const address: PastAddress = {
      street: `${rng.int(10, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_SUFFIXES)}`,
      city: place.city,
      state: place.state,
      zipCode: String(place.zip + rng.int(0, 40)).padStart(5, '0'),
      from: daysBefore(asOf, Math.round((movedOutYearsAgo + stayed) * 365.25)),
      to: daysBefore(asOf, Math.round(movedOutYearsAgo * 365.25)),
    };
    movedOutYearsAgo = round1(movedOutYearsAgo + stayed);
    return address;
  });
};

/**
 * The sandbox's synthetic credit file: every figure is drawn from a random stream seeded by the
 * subject's identity, so the same enrolment yields the same file on any machine. Scores,
 * utilisation, late payments and inquiries are drawn from one creditworthiness level so they agree.
 */
export const generateCreditFile = (subject: CreditSubject, asOf: Date): CreditFile => {
  const rng = new SeededRandom(`sandbox-bureau:v1:${subjectSeed(subject)}`);
  const bureau = rng.pick(CREDIT_BUREAUS);
  const current = rng.bell(680, 140, 320, 845);
  const quality = (current - SCORE_MIN) / (SCORE_MAX - SCORE_MIN);
  // Measured at a fixed date, not today: otherwise a birthday would change which draws are made and so the whole file.
  const creditYears = Math.max(1, yearsSince(subject.dateOfBirth, SHAPE_REFERENCE_DATE) - 18);
  const lines = tradelines(rng, quality, creditYears, asOf);
  const paymentMonths = lines.reduce((sum, t) => sum + Math.max(1, Math.round(yearsSince(t.openedOn, asOf) * 12)), 0);
  const late = lines.reduce((sum, t) => sum + t.latePayments, 0);
  return {
    bureau,
    monthlyScores: monthlyScores(rng, current, asOf),
    tradelines: lines,
    inquiries: inquiries(rng, quality, asOf),
    pastAddresses: pastAddresses(rng, creditYears, asOf),
    onTimePaymentPercent: round1(100 * (1 - late / paymentMonths)),
  };
};
