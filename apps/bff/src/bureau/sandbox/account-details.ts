import { amortizedPayment } from '../amortization.ts';
import type { PaymentStatus, TradelineKind, TradelineStatus } from '../provider.ts';
import type { DrawnAccount, SandboxAccount } from './base-file.ts';
import { monthIndexOfDay, monthString } from './calendar.ts';
import { MonthStream } from './month-stream.ts';

/** Months of payment record a tradeline shows, the file's month first. */
export const PAYMENT_HISTORY_MONTHS = 24;

/** Files this weak (quality below it, a score under about 490) can carry collections and a written-off card. */
export const WEAK_FILE_QUALITY = 0.35;

/** What the report adds to an account: drawn from the report's streams, so the file's figures never move. */
export type AccountReportFields = Pick<SandboxAccount, 'apr' | 'lateMonths' | 'chargedOff'>;

/** APR ranges in percent by kind: the better the file, the nearer the bottom. */
const APR_RANGES: Record<TradelineKind, readonly [number, number]> = {
  credit_card: [17, 29],
  auto_loan: [5, 15],
  student_loan: [4, 8],
  mortgage: [3, 7.5],
  personal_loan: [8, 30],
};

/** Card APRs end the way card issuers price them (22.49 %, 24.99 %). */
const CARD_APR_CENTS = [0.24, 0.49, 0.74, 0.99] as const;

const LATE_GRADES: readonly PaymentStatus[] = ['30', '60', '90', '120'];

const drawApr = (r: MonthStream, kind: TradelineKind, quality: number): number => {
  const [low, high] = APR_RANGES[kind];
  const position = Math.max(0, Math.min(1, (1 - quality) * 0.8 + r.next() * 0.3 - 0.1));
  const apr = low + (high - low) * position;
  if (kind === 'credit_card') return Math.round((Math.floor(apr) + r.pick(CARD_APR_CENTS)) * 100) / 100;
  return Math.round(apr * 10) / 10;
};

/**
 * `count` distinct months (monthIndexOf values) in `first`–`last`, oldest first. The first payment falls due the month
 * after opening, so the opening month is used only when the later months are too few.
 */
const drawMonths = (r: MonthStream, first: number, last: number, count: number): number[] => {
  const from = last - first >= count ? first + 1 : first;
  const wanted = Math.min(count, Math.max(0, last - from + 1));
  const picked = new Set<number>();
  while (picked.size < wanted) picked.add(r.int(from, last));
  return [...picked].sort((a, b) => a - b);
};

/**
 * An account of the base file: its APR, and a month for each of its late payments between its opening and the anchor
 * (or its closing or payoff, when earlier). A weak file's closed card with late payments may have been written off:
 * its late payments are then the months leading up to its closing month, which reports the charge-off.
 */
export const baseAccountReport = (
  r: MonthStream,
  account: DrawnAccount,
  quality: number,
  aprQuality = quality,
): AccountReportFields => {
  const apr = drawApr(r, account.kind, aprQuality);
  const first = monthIndexOfDay(account.openedOn);
  // The anchor's month is the monthly events' first: a base late payment falls before it.
  const ends = [account.closedOn, account.payoffOn].filter((end): end is string => end !== null).map(monthIndexOfDay);
  const last = Math.min(-1, ...ends);
  const count = account.latePayments;
  const chargedOff =
    account.kind === 'credit_card' &&
    account.closedOn !== null &&
    count > 0 &&
    quality < WEAK_FILE_QUALITY &&
    last - count > first &&
    r.chance(0.5);
  const months = chargedOff ? Array.from({ length: count }, (_, i) => last - count + i) : drawMonths(r, first, last, count);
  return { apr, lateMonths: months.map(monthString), chargedOff };
};

/**
 * An account a monthly event opens in `month` (at most one a month): its APR, from that month's stream of the report
 * key (never the month's own event stream). Late payments are added by later events, each dated its month.
 */
export const newAccountReport = (
  reportKey: number,
  month: number,
  kind: TradelineKind,
  quality: number,
): AccountReportFields => ({
  apr: drawApr(new MonthStream(reportKey, month), kind, quality),
  lateMonths: [],
  chargedOff: false,
});

/**
 * The account's last 24 months as of `today`, newest first: `no_data` before it opened and after it closed, the
 * charge-off in a written-off card's closing month, a late payment's month `30` (`60`, `90`, `120` when the months
 * before it were late too), else `ok`.
 */
export const paymentHistoryOf = (
  account: SandboxAccount,
  today: string,
  closedOn: string | null,
  status: TradelineStatus,
): PaymentStatus[] => {
  const now = monthIndexOfDay(today);
  const opened = monthIndexOfDay(account.openedOn);
  const closed = closedOn === null ? null : monthIndexOfDay(closedOn);
  const late = account.lateMonths.map(monthIndexOfDay);
  const grid: PaymentStatus[] = [];
  for (let month = now; month > now - PAYMENT_HISTORY_MONTHS; month--) {
    if (month < opened || (closed !== null && month > closed)) grid.push('no_data');
    else if (status === 'charged_off' && month === closed) grid.push('charge_off');
    else if (!late.includes(month)) grid.push('ok');
    else {
      let run = 1;
      while (run < LATE_GRADES.length && late.includes(month - run)) run += 1;
      grid.push(LATE_GRADES[run - 1] ?? '120');
    }
  }
  return grid;
};

/** A card's minimum due: 1 % of the balance plus the month's interest, at least $25, never more than the balance. */
const minimumDue = (balance: number, aprPercent: number) =>
  Math.min(balance, Math.max(25, balance * 0.01 + (balance * aprPercent) / 1200));

/**
 * What is due each month: a loan's level payment of its original amount over its term (its balance follows that
 * schedule), a card's minimum due; nothing on a closed or paid-off account or a zero balance.
 */
export const monthlyPaymentOf = (
  kind: TradelineKind,
  limitOrAmount: number,
  balance: number,
  apr: number,
  termMonths: number | null,
  closedOn: string | null,
): number | null => {
  if (closedOn !== null || balance <= 0) return null;
  if (kind === 'credit_card' || termMonths === null) return Math.round(minimumDue(balance, apr));
  return Math.round(amortizedPayment(limitOrAmount, apr, termMonths));
};
