import {
  PAYMENT_HISTORY_MONTHS,
  type TCreditReport,
  type TCreditReportAccount,
  type TCreditReportInquiry,
  type TPaymentStatus,
} from '@credit/contract';
import { isoDate, round1 } from '../../bureau/dates.ts';
import { fileFigures } from '../../bureau/factors.ts';
import type { Collection, CreditFile, Inquiry, Tradeline } from '../../bureau/provider.ts';
import { accountIdOf } from './account-id.ts';
import type { FileOnRecord } from './file-on-record.ts';

const DAY_MS = 86_400_000;
/** Hard inquiries stay on a file two years; the report shows that window, and counts it. */
const INQUIRY_WINDOW_DAYS = 730;

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Open as the factors count it: an account is open until the bureau reports the day it closed. */
const isOpen = (t: Tradeline) => t.closedOn === null;

/** The `count` calendar months ending with the one `asOf` is in, most recent first, as YYYY-MM. */
const monthsEndingAt = (asOf: Date, count: number): string[] =>
  Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
  );

/** A tradeline's grid: its own record where the bureau has one (index 0 is the file's month), `no_data` beyond. */
const paymentGrid = (months: readonly string[], statuses: readonly TPaymentStatus[]) =>
  months.map((month, i) => ({ month, status: statuses[i] ?? 'no_data' }));

const tradelineAccount = (userId: string, t: Tradeline, months: readonly string[]): TCreditReportAccount => {
  const card = t.kind === 'credit_card';
  return {
    accountId: accountIdOf(userId, t.id),
    type: t.kind,
    creditor: t.lender,
    originalCreditor: null,
    status: t.status,
    openedOn: t.openedOn,
    closedOn: t.closedOn,
    balance: t.balance,
    creditLimit: card ? t.limitOrAmount : null,
    originalAmount: card ? null : t.limitOrAmount,
    monthlyPayment: t.monthlyPayment,
    apr: t.apr,
    termMonths: card ? null : t.termMonths,
    utilizationPercent: card && isOpen(t) && t.limitOrAmount > 0 ? round1((t.balance / t.limitOrAmount) * 100) : null,
    latePayments: t.latePayments,
    paymentHistory: paymentGrid(months, t.paymentHistory),
  };
};

const collectionAccount = (userId: string, c: Collection, months: readonly string[]): TCreditReportAccount => ({
  accountId: accountIdOf(userId, c.id),
  type: 'collection',
  creditor: c.agency,
  originalCreditor: c.originalCreditor,
  status: c.paidOn === null ? 'in_collection' : 'paid_collection',
  openedOn: c.reportedOn,
  closedOn: c.paidOn,
  balance: c.balance,
  creditLimit: null,
  originalAmount: c.originalAmount,
  monthlyPayment: null,
  apr: null,
  termMonths: null,
  utilizationPercent: null,
  latePayments: 0,
  // An agency reports a placement and a payoff, not monthly payments.
  paymentHistory: paymentGrid(months, []),
});

/** Newest first by a YYYY-MM-DD field; ties keep the file's order, so the list is the same on every read. */
const newestFirst = <T>(items: readonly T[], date: (item: T) => string): T[] =>
  [...items].sort((a, b) => (date(a) < date(b) ? 1 : date(a) > date(b) ? -1 : 0));

const accountsOf = (userId: string, file: CreditFile, asOf: Date): TCreditReportAccount[] => {
  const months = monthsEndingAt(asOf, PAYMENT_HISTORY_MONTHS);
  const byOpening = newestFirst(file.tradelines, (t) => t.openedOn);
  return [
    ...byOpening.filter(isOpen).map((t) => tradelineAccount(userId, t, months)),
    ...byOpening.filter((t) => !isOpen(t)).map((t) => tradelineAccount(userId, t, months)),
    ...newestFirst(file.collections, (c) => c.reportedOn).map((c) => collectionAccount(userId, c, months)),
  ];
};

const inquiriesOf = (file: CreditFile, since: number): TCreditReportInquiry[] => {
  const within = (kind: 'hard' | 'soft', list: readonly Inquiry[]) =>
    list.filter((i) => dayOf(i.date) >= since).map((i) => ({ kind, source: i.source, date: i.date }));
  return newestFirst([...within('hard', file.inquiries), ...within('soft', file.softInquiries)], (i) => i.date);
};

/** Street-type words a bank leaves readable: they say nothing about where the person lives. */
const STREET_TYPES = new Set([
  'street',
  'st',
  'avenue',
  'ave',
  'av',
  'road',
  'rd',
  'boulevard',
  'blvd',
  'lane',
  'ln',
  'drive',
  'dr',
  'court',
  'ct',
  'place',
  'pl',
  'way',
  'terrace',
  'ter',
  'circle',
  'cir',
  'parkway',
  'pkwy',
  'highway',
  'hwy',
  'square',
  'sq',
  'trail',
  'trl',
  'plaza',
  'loop',
  'alley',
  'path',
  'pike',
]);

/** A word's first character, then • for each further letter or digit (punctuation stays): `Maple` → `M••••`. */
const maskWord = (word: string): string => {
  const [first = '', ...rest] = Array.from(word);
  return first + rest.map((c) => (/[\p{L}\p{N}]/u.test(c) ? '•' : c)).join('');
};

/**
 * A street line as a bank masks it: the house number's first digit and each word's first letter, street types kept
 * (`1234 Maple Street` → `1••• M•••• Street`). A street type is kept only after the name it types, so in
 * `12 Court Street` the name `Court` is still masked.
 */
export const maskStreet = (street: string): string => {
  const words = street.trim().split(/\s+/).filter(Boolean);
  const nameStarts = words.length > 1 && /^\d/.test(words[0] ?? '') ? 1 : 0;
  return words
    .map((word, i) => (i > nameStarts && STREET_TYPES.has(word.replace(/\.$/, '').toLowerCase()) ? word : maskWord(word)))
    .join(' ');
};

/** An employer's name masked to each word's first letter: `Contoso Ltd` → `C•••••• L••`. */
export const maskName = (name: string): string => name.trim().split(/\s+/).filter(Boolean).map(maskWord).join(' ');

/**
 * The credit report of a file on record, for the user it belongs to. Pure: the same file gives the same report. Its
 * summary figures are the factors' own (fileFigures), so the report and the score never disagree.
 */
export const creditReportOf = (userId: string, { file, asOf }: FileOnRecord): TCreditReport => {
  const figures = fileFigures(file, asOf);
  const since = asOf.getTime() - INQUIRY_WINDOW_DAYS * DAY_MS;
  const open = file.tradelines.filter(isOpen);
  return {
    userId,
    bureau: file.bureau,
    reportDate: isoDate(asOf),
    pulledAt: asOf.toISOString(),
    summary: {
      openAccounts: open.length,
      // Closed accounts too: a closed card's balance is still owed (and in cardBalance), a paid-off loan's is 0.
      totalBalance: file.tradelines.reduce((sum, t) => sum + t.balance, 0),
      cardBalance: figures.totalBalance,
      totalCreditLimit: figures.totalLimit,
      utilizationPercent: figures.utilizationPercent,
      totalMonthlyPayments: open.reduce((sum, t) => sum + (t.monthlyPayment ?? 0), 0),
      oldestAccountAgeYears: figures.oldestAccountYears,
      averageAccountAgeYears: figures.averageAgeYears,
      hardInquiries24Months: file.inquiries.filter((i) => dayOf(i.date) >= since).length,
      hardInquiries12Months: figures.recentInquiries,
      latePayments: figures.latePayments,
      derogatoryMarks:
        file.collections.length + file.tradelines.filter((t) => t.status === 'charged_off').length + file.publicRecords.length,
      onTimePaymentPercent: figures.onTimePaymentPercent,
    },
    accounts: accountsOf(userId, file, asOf),
    inquiries: inquiriesOf(file, since),
    publicRecords: file.publicRecords.map(({ type, status, filedOn, resolvedOn, court }) => ({
      type,
      status,
      filedOn,
      resolvedOn,
      court,
    })),
    personalInformation: {
      names: [...file.names],
      yearOfBirth: file.yearOfBirth,
      addresses: newestFirst(file.reportedAddresses, (a) => a.reportedOn).map((a) => ({
        street: maskStreet(a.street),
        city: a.city,
        state: a.state,
        zipCode: a.zipCode,
        reportedOn: a.reportedOn,
      })),
      employers: newestFirst(file.employers, (e) => e.reportedOn).map((e) => ({
        name: maskName(e.name),
        reportedOn: e.reportedOn,
      })),
    },
  };
};
