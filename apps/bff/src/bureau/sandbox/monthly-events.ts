import type { ConsumerFlagType, Inquiry, ReportedAddress, TradelineKind } from '../provider.ts';
import { newAccountReport } from './account-details.ts';
import { type BaseFile, cardLimit, installmentAmount, payoffOf, type SandboxAccount } from './base-file.ts';
import { addMonths, dayOfMonth, monthIndexOfDay } from './calendar.ts';
import { CITIES, INQUIRY_SOURCES, LENDERS, STREET_NAMES, STREET_SUFFIXES } from './directory.ts';
import type { SandboxStory } from './magic-ssn.ts';
import type { MonthStream } from './month-stream.ts';

/** A flag placed by a monthly event lapses after a year (an initial fraud alert does); a story's stays. */
export interface SandboxFlag {
  type: ConsumerFlagType;
  placedOn: string;
  expiresOn: string | null;
}

/** The file as events leave it, month after month. */
export interface FileState {
  story: SandboxStory;
  accounts: SandboxAccount[];
  inquiries: Inquiry[];
  /** Addresses reported after the anchor (the past addresses are reported too, from the base file). */
  reported: ReportedAddress[];
  flags: SandboxFlag[];
  /** Card utilisation, percent of the open cards' limits. */
  utilization: number;
  /** Slow month-to-month wander of the score, in points. */
  walk: number;
  /** What recent events cost the score, in points; fades each month as real scores recover. */
  impact: number;
}

export const initialState = (base: BaseFile, story: SandboxStory): FileState => ({
  story,
  accounts: base.accounts,
  inquiries: base.inquiries,
  reported: [],
  // 1003: a fraud alert placed in the month before the anchor, on file at any first pull after it.
  flags: story === 'fraud_flag' ? [{ type: 'fraud_alert', placedOn: dayOfMonth(-1, 1 + (base.key % 28)), expiresOn: null }] : [],
  utilization: base.utilization,
  walk: 0,
  impact: 0,
});

const isOpenOn = (account: SandboxAccount, date: string) =>
  account.closedOn === null && (account.payoffOn === null || account.payoffOn > date);

const openCards = (state: FileState, date: string) => state.accounts.filter((a) => a.kind === 'credit_card' && isOpenOn(a, date));

const addInquiry = (state: FileState, source: string, date: string) => {
  // One lender and day is one inquiry (and one alert key).
  if (!state.inquiries.some((i) => i.source === source && i.date === date)) state.inquiries.push({ source, date });
};

/** Applying for credit: the lender's inquiry, then the account, dated the same day. */
const openAccount = (state: FileState, base: BaseFile, r: MonthStream, kind: TradelineKind, date: string) => {
  const lender = r.pick(LENDERS[kind]);
  addInquiry(state, lender, date);
  const next = () => r.next();
  const id = `tl_${date.slice(0, 4)}${date.slice(5, 7)}`;
  state.accounts.push({
    id,
    lender,
    kind,
    openedOn: date,
    closedOn: null,
    limitOrAmount: kind === 'credit_card' ? cardLimit(next, base.quality) : installmentAmount(next, kind, base.quality),
    latePayments: 0,
    payoffOn: payoffOf(kind, date),
    weight: kind === 'credit_card' ? 0.7 + 0.6 * r.next() : 0.9 + 0.1 * r.next(),
    // From the report key's stream for the month, after the draws above: r is not drawn from again here.
    ...newAccountReport(base.reportKey, monthIndexOfDay(date), kind, base.quality),
  });
};

/** A late payment on `account`, dated the month of `date` (the payment grid shows it there). */
const payLate = (account: SandboxAccount, date: string) => {
  account.latePayments += 1;
  account.lateMonths.push(date.slice(0, 7));
};

const reportAddress = (state: FileState, r: MonthStream, date: string) => {
  const place = r.pick(CITIES);
  state.reported.push({
    street: `${r.int(10, 9899)} ${r.pick(STREET_NAMES)} ${r.pick(STREET_SUFFIXES)}`,
    city: place.city,
    state: place.state,
    zipCode: String(place.zip + r.int(0, 40)).padStart(5, '0'),
    reportedOn: date,
  });
};

const placeFlag = (state: FileState, type: ConsumerFlagType, date: string) =>
  state.flags.push({ type, placedOn: date, expiresOn: addMonths(date, 12) });

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(max, value));

/** An ordinary month: each kind of event has a small chance, likelier for a weaker file; the score follows. */
const ordinaryMonth = (state: FileState, base: BaseFile, r: MonthStream, date: string) => {
  const weakness = 1 - base.quality;
  state.utilization = clamp(state.utilization + r.noise(4) + (base.utilization - state.utilization) * 0.15, 1, 97);
  let impact = state.impact * 0.8;
  if (r.chance(0.04 + 0.1 * weakness)) {
    addInquiry(state, r.pick(INQUIRY_SOURCES), date);
    impact -= 3;
  }
  const cards = openCards(state, date);
  if (r.chance(0.025) && cards.length < 7) {
    openAccount(state, base, r, r.chance(0.75) ? 'credit_card' : r.pick(['auto_loan', 'personal_loan'] as const), date);
    impact -= 6;
  }
  if (r.chance(0.015) && cards.length >= 3) {
    // Never the oldest card: people keep it, and its age holds the score up.
    r.pick(cards.slice(1)).closedOn = date;
    impact -= 3;
  }
  if (r.chance(0.035 * weakness * weakness)) {
    const open = state.accounts.filter((a) => isOpenOn(a, date));
    if (open.length > 0) payLate(r.pick(open), date);
    impact -= 20;
  }
  if (r.chance(0.008)) reportAddress(state, r, date);
  if (r.chance(0.001)) placeFlag(state, r.chance(0.7) ? 'fraud_alert' : 'active_duty_alert', date);
  state.walk = state.walk * 0.8 + r.noise(4);
  state.impact = impact;
};

/**
 * 1001's year: two six-month rounds, each opening a card (and its inquiry), a late payment, utilisation crossing
 * 30 % upward, a new address, a flag (fraud in May, active duty in November), then the card closed and
 * utilisation back down. Every type comes back within six months, so any twelve monthly pulls see each.
 */
export const EVERY_ALERT_UTILIZATION = [12, 12, 45, 45, 45, 12] as const;
/** 1001's score against its base, by round month: moves of 18–30 points (late payment, high utilisation, recovery). */
export const EVERY_ALERT_SCORE_OFFSET = [-4, -24, -42, -40, -38, -8] as const;

export const roundMonthOf = (month: number) => ((month % 6) + 6) % 6;

const everyAlertMonth = (state: FileState, base: BaseFile, r: MonthStream, month: number, date: string) => {
  const phase = roundMonthOf(month);
  state.utilization = EVERY_ALERT_UTILIZATION[phase] ?? 12;
  if (phase === 0) openAccount(state, base, r, 'credit_card', date);
  if (phase === 1) {
    const account = openCards(state, date)[0] ?? state.accounts[0];
    if (account) payLate(account, date);
  }
  if (phase === 3) {
    reportAddress(state, r, date);
    addInquiry(state, r.pick(INQUIRY_SOURCES), date);
  }
  if (phase === 4) placeFlag(state, ((month % 12) + 12) % 12 === 4 ? 'fraud_alert' : 'active_duty_alert', date);
  if (phase === 5) {
    // The card this round opened (a base card if the round began before the anchor), never the oldest.
    const cards = openCards(state, date);
    const newest = cards.length > 1 ? cards.at(-1) : undefined;
    if (newest) newest.closedOn = date;
  }
};

/** Applies month `month`'s events, all dated `date` (its reporting day). */
export const applyMonth = (state: FileState, base: BaseFile, r: MonthStream, month: number, date: string): void => {
  if (state.story === 'quiet') return;
  if (state.story === 'every_alert') everyAlertMonth(state, base, r, month, date);
  else ordinaryMonth(state, base, r, date);
};

/** The score once a month's events are in. */
export const scoreOf = (state: FileState, base: BaseFile, month: number): number => {
  if (state.story === 'quiet') return base.score;
  if (state.story === 'every_alert') return base.score + (EVERY_ALERT_SCORE_OFFSET[roundMonthOf(month)] ?? 0);
  return base.score + state.walk + state.impact - (state.utilization - base.utilization) * 0.4;
};
