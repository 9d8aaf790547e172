import { SCORE_MAX, SCORE_MIN } from '@credit/contract';
import { paymentsMadeBy, scheduledBalance } from '../amortization.ts';
import { daysBefore, isoDate, round1 } from '../dates.ts';
import type {
  ConsumerFlag,
  CreditFile,
  CreditSubject,
  MonthlyScore,
  ReportedAddress,
  Tradeline,
  TradelineStatus,
} from '../provider.ts';
import { monthlyPaymentOf, paymentHistoryOf } from './account-details.ts';
import { type BaseFile, baseFile, type SandboxAccount, termMonthsOf } from './base-file.ts';
import { ANCHOR, dayOfMonth, monthIndexOf, monthsBetween } from './calendar.ts';
import { storyOf } from './magic-ssn.ts';
import { MonthStream } from './month-stream.ts';
import { applyMonth, type FileState, initialState, scoreOf } from './monthly-events.ts';
import { collectionsOn, employersOn, namesOf, publicRecordsOn, softInquiriesOn, yearOfBirthOf } from './report-records.ts';

export { subjectSeed } from './base-file.ts';

export const HISTORY_MONTHS = 24;
/** Hard inquiries stay on a file two years; accounts closed ten years ago drop off. */
const INQUIRY_DAYS_ON_FILE = 730;
const CLOSED_DAYS_ON_FILE = 3652;
/** Newly reported addresses kept on the file, newest. */
const REPORTED_ADDRESSES_KEPT = 12;

const clampScore = (score: number) => Math.max(SCORE_MIN, Math.min(SCORE_MAX, Math.round(score)));

/** Each month's reporting day (1–28, when its events are dated) and the score once they are in. */
interface MonthEnd {
  day: number;
  score: number;
}

/**
 * Replays every month from the anchor's to asOf's into `state`: month m's events happen on its reporting day and
 * are on the file when that day is on or before asOf. Returns each month's end that has come, indexed by month.
 */
const replay = (base: BaseFile, state: FileState, asOf: Date): Map<number, MonthEnd> => {
  const ends = new Map<number, MonthEnd>();
  const last = monthIndexOf(asOf);
  const today = asOf.getUTCDate();
  for (let month = 0; month <= last; month++) {
    const r = new MonthStream(base.key, month);
    const day = r.int(1, 28);
    if (month === last && day > today) break;
    applyMonth(state, base, r, month, dayOfMonth(month, day));
    ends.set(month, { day, score: clampScore(scoreOf(state, base, month)) });
  }
  return ends;
};

/**
 * Months before the anchor: the score walked back from the anchor's with the person's drift and some noise
 * (1001 and 1002 keep their own pattern), each month's draws from its own stream.
 */
const fillBefore = (base: BaseFile, state: FileState, ends: Map<number, MonthEnd>, from: number) => {
  let score = base.score;
  for (let month = -1; month >= from; month--) {
    const r = new MonthStream(base.key, month);
    const day = r.int(1, 28);
    const patterned = state.story === 'every_alert' || state.story === 'quiet';
    ends.set(month, { day, score: clampScore(patterned ? scoreOf(state, base, month) : score) });
    if (!patterned) score = clampScore(score - base.drift + r.int(-7, 7));
  }
};

/** The score on day `day` of `month`: its month's, once the month's reporting day has come, else the month before's. */
const scoreOn = (ends: Map<number, MonthEnd>, month: number, day: number): number => {
  const end = ends.get(month);
  return (end && end.day <= day ? end.score : ends.get(month - 1)?.score) ?? SCORE_MIN;
};

/** 24 monthly points ending with today's score. */
const monthlyScores = (ends: Map<number, MonthEnd>, asOf: Date): MonthlyScore[] => {
  const now = monthIndexOf(asOf);
  const day = asOf.getUTCDate();
  const pastDay = Math.min(day, 28);
  return Array.from({ length: HISTORY_MONTHS }, (_, i) => {
    const month = now - (HISTORY_MONTHS - 1 - i);
    // The current score is dated today; earlier ones on the same day of past months (28th at most).
    const date = month === now ? isoDate(asOf) : dayOfMonth(month, pastDay);
    return { date, score: scoreOn(ends, month, month === now ? day : pastDay) };
  });
};

/** Each account as the bureau reports it on `today` (YYYY-MM-DD); accounts closed ten years before are gone. */
const tradelinesOn = (state: FileState, today: string, asOf: Date): Tradeline[] => {
  const droppedBefore = daysBefore(asOf, CLOSED_DAYS_ON_FILE);
  const isCardOpen = (a: SandboxAccount) => a.kind === 'credit_card' && (a.closedOn === null || a.closedOn > today);
  const cards = state.accounts.filter((a) => a.openedOn <= today && isCardOpen(a));
  const totalLimit = cards.reduce((sum, a) => sum + a.limitOrAmount, 0);
  const weighted = cards.reduce((sum, a) => sum + a.limitOrAmount * a.weight, 0);
  const totalBalance = (totalLimit * state.utilization) / 100;
  const lines: Tradeline[] = [];
  for (const a of state.accounts) {
    if (a.openedOn > today) continue;
    const paidOff = a.payoffOn !== null && a.payoffOn <= today ? a.payoffOn : null;
    const closedOn = a.closedOn !== null && a.closedOn <= today ? a.closedOn : paidOff;
    if (closedOn !== null && closedOn < droppedBefore) continue;
    const termMonths = termMonthsOf(a.kind);
    let balance = 0;
    if (closedOn === null && a.kind === 'credit_card') {
      balance = Math.min(a.limitOrAmount, Math.round((totalBalance * a.limitOrAmount * a.weight) / weighted));
    } else if (closedOn === null && termMonths !== null) {
      // What the schedule leaves, so the level payment of it over the months left is the payment reported.
      balance = Math.round(scheduledBalance(a.limitOrAmount, a.apr, termMonths, paymentsMadeBy(a.openedOn, today)));
    }
    const { id, lender, kind, openedOn, limitOrAmount, latePayments, apr } = a;
    const status: TradelineStatus =
      closedOn === null ? 'open' : closedOn !== a.closedOn ? 'paid_off' : a.chargedOff ? 'charged_off' : 'closed';
    lines.push({
      id,
      lender,
      kind,
      status,
      openedOn,
      closedOn,
      limitOrAmount,
      balance,
      latePayments,
      monthlyPayment: monthlyPaymentOf(kind, limitOrAmount, balance, apr, termMonths, closedOn),
      apr,
      termMonths,
      paymentHistory: paymentHistoryOf(a, today, closedOn, status),
    });
  }
  return lines;
};

const reportedAddressesOn = (base: BaseFile, state: FileState, today: string): ReportedAddress[] => [
  ...base.pastAddresses
    .filter((a) => a.from <= today)
    .map(({ street, city, state: st, zipCode, from }) => ({ street, city, state: st, zipCode, reportedOn: from }))
    .reverse(),
  ...state.reported.slice(-REPORTED_ADDRESSES_KEPT),
];

const flagsOn = (state: FileState, today: string): ConsumerFlag[] =>
  state.flags
    .filter((f) => f.placedOn <= today && (f.expiresOn === null || f.expiresOn > today))
    .map(({ type, placedOn }) => ({ type, placedOn }));

/**
 * The sandbox's synthetic credit file as of `asOf`: a base file anchored at 2025-01-01, drawn from the subject's
 * identity, plus the events of every calendar month since (each month's from a stream seeded by identity and
 * month, dated on that month's reporting day). The same identity and day give the same file on any machine;
 * a later day gives the same file plus what happened in between. Stories by ssn: ./magic-ssn.ts.
 */
export const generateCreditFile = (subject: CreditSubject, asOf: Date): CreditFile => {
  const story = storyOf(subject.ssnLast4);
  const base = baseFile(subject, story);
  const state = initialState(base, story);
  const ends = replay(base, state, asOf);
  fillBefore(base, state, ends, Math.min(-1, monthIndexOf(asOf) - HISTORY_MONTHS));
  // 1002 stands still at the anchor: not even a loan payoff or an inquiry ageing off the file changes it.
  const fileDay = story === 'quiet' && asOf > ANCHOR ? ANCHOR : asOf;
  const today = isoDate(fileDay);
  const tradelines = tradelinesOn(state, today, fileDay);
  const inquiriesSince = daysBefore(fileDay, INQUIRY_DAYS_ON_FILE);
  const paymentMonths = tradelines.reduce((sum, t) => sum + Math.max(1, monthsBetween(t.openedOn, today)), 0);
  const late = tradelines.reduce((sum, t) => sum + t.latePayments, 0);
  return {
    bureau: base.bureau,
    monthlyScores: monthlyScores(ends, asOf),
    tradelines,
    inquiries: state.inquiries.filter((i) => i.date <= today && i.date > inquiriesSince),
    pastAddresses: base.pastAddresses.filter((a) => a.to <= today),
    reportedAddresses: reportedAddressesOn(base, state, today),
    flags: flagsOn(state, today),
    onTimePaymentPercent: round1(100 * Math.max(0, 1 - late / Math.max(1, paymentMonths))),
    collections: collectionsOn(base.records.collections, today, fileDay),
    publicRecords: publicRecordsOn(base.records.publicRecords, today, fileDay),
    softInquiries: softInquiriesOn(base.reportKey, today, fileDay),
    names: namesOf(subject),
    yearOfBirth: yearOfBirthOf(subject),
    employers: employersOn(base.records.employers, today),
  };
};
