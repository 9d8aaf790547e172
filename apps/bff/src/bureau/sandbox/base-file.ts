import { CREDIT_BUREAUS, SCORE_MAX, SCORE_MIN, type TCreditBureau } from '@credit/contract';
import { SeededRandom } from '../../lib/seeded-random.ts';
import { round1, yearsSince } from '../dates.ts';
import type { CreditSubject, Inquiry, PastAddress, TradelineKind } from '../provider.ts';
import { baseAccountReport } from './account-details.ts';
import { ANCHOR, addMonths, daysBeforeAnchor } from './calendar.ts';
import { CITIES, INQUIRY_SOURCES, LENDERS, STREET_NAMES, STREET_SUFFIXES } from './directory.ts';
import type { SandboxStory } from './magic-ssn.ts';
import { MonthStream, REPORT_STREAMS } from './month-stream.ts';
import { type ReportRecords, reportRecords } from './report-records.ts';

/** One account as the sandbox keeps it; the file's tradeline (balance, closure) is derived from it for a given day. */
export interface SandboxAccount {
  id: string;
  lender: string;
  kind: TradelineKind;
  openedOn: string;
  /** The day the account was closed by the lender or the person; loans also close when paid off (`payoffOn`). */
  closedOn: string | null;
  limitOrAmount: number;
  latePayments: number;
  /** Installment loans: the day the last payment falls due. Cards: null. */
  payoffOn: string | null;
  /** Cards: this card’s relative share of the card balances. Loans: drawn but unused (balances follow the amortization schedule). */
  weight: number;
  /** APR in percent. */
  apr: number;
  /** The month (YYYY-MM) of each late payment, oldest first: at most one a month, never more than `latePayments`. */
  lateMonths: string[];
  /** A closed card the lender wrote off: its closing month reports the charge-off. */
  chargedOff: boolean;
}

/** An account as the file's own draws make it; the report's fields (./account-details.ts) come from another stream. */
export type DrawnAccount = Omit<SandboxAccount, 'apr' | 'lateMonths' | 'chargedOff'>;

/** The person's file at the anchor, drawn once from their identity. */
export interface BaseFile {
  bureau: TCreditBureau;
  /** The score at the anchor; the monthly events move it from there. */
  score: number;
  /** Creditworthiness, 0–1: drives every draw so the figures agree with the score. */
  quality: number;
  /** Card utilisation (percent) at the anchor, where it drifts back to. */
  utilization: number;
  /** Points a month the score rose over the two years before the anchor. */
  drift: number;
  /** 32 bits from the identity's SHA-256 stream: seeds the cheap per-month streams. */
  key: number;
  accounts: SandboxAccount[];
  inquiries: Inquiry[];
  pastAddresses: PastAddress[];
  /**
   * 32 bits from the report's own SHA-256 stream: seeds the cheap streams every field of the full report is drawn from
   * (APRs, payment months, collections, soft inquiries, …), apart from the figures' streams so none of those moves.
   */
  reportKey: number;
  /** Collections, public records and employers, from the report's stream too. */
  records: ReportRecords;
}

/** The identity fields the file derives from, normalised so cosmetic differences do not change it. */
export const subjectSeed = (s: CreditSubject): string =>
  [
    s.firstName.trim().toLowerCase(),
    s.lastName.trim().toLowerCase(),
    s.dateOfBirth,
    s.ssnLast4,
    s.address.zipCode.slice(0, 5),
  ].join('|');

const roundTo = (value: number, step: number) => Math.max(step, Math.round(value / step) * step);

const TERM_YEARS: Record<TradelineKind, number> = {
  credit_card: 0,
  auto_loan: 5,
  student_loan: 10,
  mortgage: 30,
  personal_loan: 5,
};

/** Original amounts by kind, scaled by how creditworthy the person is (0–1). */
export const installmentAmount = (next: () => number, kind: TradelineKind, quality: number): number => {
  const ranges: Partial<Record<TradelineKind, [number, number, number]>> = {
    auto_loan: [12_000, 48_000, 500],
    student_loan: [8_000, 65_000, 500],
    mortgage: [140_000, 560_000, 5_000],
    personal_loan: [2_000, 25_000, 500],
  };
  const [min, max, step] = ranges[kind] ?? [1_000, 10_000, 100];
  return roundTo(min + (max - min) * (0.3 * next() + 0.7 * quality * next()), step);
};

export const cardLimit = (next: () => number, quality: number): number =>
  roundTo((1_500 + 13_500 * quality) * (0.5 + next()), 100);

/** An installment loan's term in months; null for cards. */
export const termMonthsOf = (kind: TradelineKind): number | null => (kind === 'credit_card' ? null : TERM_YEARS[kind] * 12);

/** A loan opened on `openedOn` is paid off after its term. */
export const payoffOf = (kind: TradelineKind, openedOn: string): string | null =>
  kind === 'credit_card' ? null : addMonths(openedOn, TERM_YEARS[kind] * 12);

const accounts = (rng: SeededRandom, quality: number, creditYears: number): DrawnAccount[] => {
  const age = (years: number) => daysBeforeAnchor(Math.round(years * 365.25));
  const oldest = round1(Math.max(1, Math.min(creditYears, 1 + creditYears * (0.35 + 0.6 * quality * rng.next()))));
  const kinds: TradelineKind[] = Array.from({ length: rng.int(2, 4) }, () => 'credit_card' as const);
  if (rng.next() < 0.6) kinds.push('auto_loan');
  if (creditYears < 22 && rng.next() < 0.5) kinds.push('student_loan');
  if (quality > 0.45 && creditYears > 8 && rng.next() < 0.6) kinds.push('mortgage');
  if (quality < 0.55 && rng.next() < 0.5) kinds.push('personal_loan');
  // Everyone the sandbox scores has at least one loan: identity questions need more than card facts.
  if (!kinds.some((kind) => kind !== 'credit_card')) kinds.push(quality < 0.5 ? 'personal_loan' : 'auto_loan');

  const lateBudget = quality > 0.78 ? 0 : rng.int(0, Math.round((1 - quality) * 10));
  const usedLenders = new Set<string>();
  const next = () => rng.next();
  return kinds.map((kind, index): DrawnAccount => {
    const lender = rng.pick(LENDERS[kind].filter((l) => !usedLenders.has(l)));
    usedLenders.add(lender);
    const openedYears = index === 0 ? oldest : round1(0.3 + rng.next() * (oldest - 0.3));
    const openedOn = age(openedYears);
    const latePayments = index < lateBudget ? rng.int(1, 2) : 0;
    if (kind === 'credit_card') {
      // The oldest two cards stay open, so every file has card credit to use.
      const closed = index > 1 && rng.next() < 0.25;
      return {
        id: `tl_${index + 1}`,
        lender,
        kind,
        openedOn,
        closedOn: closed ? age(rng.next() * Math.min(openedYears, 3)) : null,
        limitOrAmount: cardLimit(next, quality),
        latePayments,
        payoffOn: null,
        weight: 0.7 + 0.6 * rng.next(),
      };
    }
    return {
      id: `tl_${index + 1}`,
      lender,
      kind,
      openedOn,
      closedOn: null,
      limitOrAmount: installmentAmount(next, kind, quality),
      latePayments,
      payoffOn: payoffOf(kind, openedOn),
      weight: 0.9 + 0.1 * rng.next(),
    };
  });
};

const inquiries = (rng: SeededRandom, quality: number, story: SandboxStory): Inquiry[] => {
  const recent = Math.max(0, Math.min(8, Math.round((1 - quality) * 5 + rng.next() * 2 - 0.5)));
  const older = rng.int(0, 3);
  const days = [
    ...Array.from({ length: recent }, () => rng.int(3, 360)),
    ...Array.from({ length: older }, () => rng.int(370, 720)),
  ].sort((a, b) => b - a);
  const seen = new Set<string>();
  const list: Inquiry[] = [];
  for (const ago of days) {
    const inquiry = { source: rng.pick(INQUIRY_SOURCES), date: daysBeforeAnchor(ago) };
    // A quiet file must have nothing recent at any first pull (it stands still at the anchor); one lender and
    // day is one inquiry.
    if ((story === 'quiet' && ago < 370) || seen.has(`${inquiry.source}|${inquiry.date}`)) continue;
    seen.add(`${inquiry.source}|${inquiry.date}`);
    list.push(inquiry);
  }
  return list;
};

const pastAddresses = (rng: SeededRandom, creditYears: number): PastAddress[] => {
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
      from: daysBeforeAnchor(Math.round((movedOutYearsAgo + stayed) * 365.25)),
      to: daysBeforeAnchor(Math.round(movedOutYearsAgo * 365.25)),
    };
    movedOutYearsAgo = round1(movedOutYearsAgo + stayed);
    return address;
  });
};

/** Stories need room to move (1001 swings about 40 points) or a good file (1002, and 1004 to pre-qualify for refinancing). */
const storyScore = (drawn: number, story: SandboxStory): number => {
  if (story === 'every_alert') return Math.max(540, Math.min(760, drawn));
  if (story === 'quiet') return Math.max(700, drawn);
  if (story === 'costly_credit') return Math.max(720, drawn);
  return drawn;
};

/** 1002 keeps its cards nearly unused; 1004 carries balances worth moving to a cheaper rate. */
const storyUtilization = (drawn: number, story: SandboxStory): number => {
  if (story === 'quiet') return Math.min(drawn, 9);
  if (story === 'costly_credit') return Math.max(drawn, 45);
  return drawn;
};

/**
 * The person's file at the anchor: every figure drawn from a SHA-256 stream seeded by the identity, so the same
 * enrolment yields the same file on any machine. Scores, utilisation, late payments and inquiries are drawn from
 * one creditworthiness level so they agree.
 */
export const baseFile = (subject: CreditSubject, story: SandboxStory): BaseFile => {
  const rng = new SeededRandom(`sandbox-bureau:v2:${subjectSeed(subject)}`);
  const bureau = rng.pick(CREDIT_BUREAUS);
  const score = storyScore(rng.bell(680, 140, 320, 845), story);
  const quality = (score - SCORE_MIN) / (SCORE_MAX - SCORE_MIN);
  // Measured at the anchor, not the day asked: otherwise a birthday would change which draws are made.
  const creditYears = Math.max(1, yearsSince(subject.dateOfBirth, ANCHOR) - 18);
  const drawnUtilization = rng.bell(92 - quality * 88, 10, 1, 97);
  // Drawn from rng in this order, which every figure depends on; the report's streams come after and never touch rng.
  const drift = rng.int(-3, 4);
  const key = rng.int(0, 0xffff_ffff);
  const drawnAccounts = accounts(rng, quality, creditYears);
  const drawnInquiries = inquiries(rng, quality, story);
  const drawnAddresses = pastAddresses(rng, creditYears);
  const reportKey = new SeededRandom(`sandbox-bureau:report:v1:${subjectSeed(subject)}`).int(0, 0xffff_ffff);
  // The base file's report fields, drawn in this order: the accounts', then the records'.
  const report = new MonthStream(reportKey, REPORT_STREAMS.baseFile);
  // 1004's accounts were priced when its credit was poor: each APR at the top of its kind's range.
  const aprQuality = story === 'costly_credit' ? 0 : quality;
  return {
    bureau,
    score,
    quality,
    utilization: storyUtilization(drawnUtilization, story),
    drift,
    key,
    // In place (the drawn accounts are this call’s own): copying each account cost more than drawing it.
    accounts: drawnAccounts.map(
      (account): SandboxAccount => Object.assign(account, baseAccountReport(report, account, quality, aprQuality)),
    ),
    inquiries: drawnInquiries,
    pastAddresses: drawnAddresses,
    reportKey,
    records: reportRecords(report, quality, story, creditYears, drawnAddresses),
  };
};
