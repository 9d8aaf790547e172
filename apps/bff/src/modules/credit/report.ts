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

/**
 * Street-type words a bank leaves readable: they say nothing about where the person lives. The USPS street suffixes
 * (Publication 28, appendix C1), each by its name and its standard abbreviation, and the common `av`.
 */
const STREET_TYPES = new Set(
  `alley aly annex anx arcade arc avenue ave av bayou byu beach bch bend bnd bluff blf bluffs blfs bottom btm
  boulevard blvd branch br bridge brg brook brk brooks brks burg bg burgs bgs bypass byp camp cp canyon cyn cape cpe
  causeway cswy center ctr centers ctrs circle cir circles cirs cliff clf cliffs clfs club clb common cmn commons cmns
  corner cor corners cors course crse court ct courts cts cove cv coves cvs creek crk crescent cres crest crst
  crossing xing crossroad xrd crossroads xrds curve curv dale dl dam dm divide dv drive dr drives drs estate est
  estates ests expressway expy extension ext extensions exts fall falls fls ferry fry field fld fields flds flat flt
  flats flts ford frd fords frds forest frst forge frg forges frgs fork frk forks frks fort ft freeway fwy garden gdn
  gardens gdns gateway gtwy glen gln glens glns green grn greens grns grove grv groves grvs harbor hbr harbors hbrs
  haven hvn heights hts highway hwy hill hl hills hls hollow holw inlet inlt island is islands iss isle junction jct
  junctions jcts key ky keys kys knoll knl knolls knls lake lk lakes lks land landing lndg lane ln light lgt lights
  lgts loaf lf lock lck locks lcks lodge ldg loop mall manor mnr manors mnrs meadow mdw meadows mdws mews mill ml
  mills mls mission msn motorway mtwy mount mt mountain mtn mountains mtns neck nck orchard orch oval overpass opas
  park parks parkway pkwy parkways pass passage psge path pike pine pne pines pnes place pl plain pln plains plns
  plaza plz point pt points pts port prt ports prts prairie pr radial radl ramp ranch rnch rapid rpd rapids rpds rest
  rst ridge rdg ridges rdgs river riv road rd roads rds route rte row rue run shoal shl shoals shls shore shr shores
  shrs skyway skwy spring spg springs spgs spur spurs square sq squares sqs station sta stravenue stra stream strm
  street st streets sts summit smt terrace ter throughway trwy trace trce track trak trafficway trfy trail trl
  trailer trlr tunnel tunl turnpike tpke underpass upas union un unions uns valley vly valleys vlys viaduct via view
  vw views vws village vlg villages vlgs ville vl vista vis walk walks wall way ways well wl wells wls`.split(/\s+/),
);

/** Words that open a unit after the street (`Apt 4B`, `Suite 300`, `#5`): a street type is never looked for past one. */
const UNIT_DESIGNATORS = new Set(
  'apartment apt unit suite ste building bldg floor fl room rm lot space spc department dept office ofc penthouse ph'.split(' '),
);

const bare = (word: string) => word.replace(/[.,]+$/, '').toLowerCase();

/** A word's first character, then • for each further letter or digit (punctuation stays): `Maple` → `M••••`. */
const maskWord = (word: string): string => {
  const [first = '', ...rest] = Array.from(word);
  return first + rest.map((c) => (/[\p{L}\p{N}]/u.test(c) ? '•' : c)).join('');
};

/**
 * A street line as a bank masks it: the house number's first digit and each word's first letter, only the street's
 * type kept (`1234 Maple Street` → `1••• M•••• Street`). The type is the last street-type word after at least one word
 * of name and before any unit, so every word of the name is masked even when it is a street type too
 * (`77 Sunset Trail Loop` → `7• S••••• T•••• Loop`, `12 Court St Apt 4` → `1• C•••• St A•• 4`).
 */
export const maskStreet = (street: string): string => {
  const words = street.trim().split(/\s+/).filter(Boolean);
  const nameStarts = words.length > 1 && /^\d/.test(words[0] ?? '') ? 1 : 0;
  let typeAt = -1;
  for (let i = nameStarts + 1; i < words.length; i++) {
    const word = bare(words[i] ?? '');
    if (typeAt >= 0 && (UNIT_DESIGNATORS.has(word) || word.startsWith('#'))) break;
    if (STREET_TYPES.has(word)) typeAt = i;
  }
  return words.map((word, i) => (i === typeAt ? word : maskWord(word))).join(' ');
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
