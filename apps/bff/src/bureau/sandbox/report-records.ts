import type {
  Collection,
  CreditSubject,
  Inquiry,
  PastAddress,
  PublicRecord,
  PublicRecordType,
  ReportedEmployer,
} from '../provider.ts';
import { WEAK_FILE_QUALITY } from './account-details.ts';
import { addMonths, daysBeforeAnchor, daysBeforeDay } from './calendar.ts';
import {
  BANKRUPTCY_COURTS,
  COLLECTION_AGENCIES,
  EMPLOYERS,
  LENDERS,
  MEDICAL_AND_UTILITY_CREDITORS,
  OWN_CHECK_SOURCE,
  SOFT_INQUIRY_SOURCES,
} from './directory.ts';
import type { SandboxStory } from './magic-ssn.ts';
import { MonthStream, REPORT_STREAMS } from './month-stream.ts';

/** Only the weakest files (a score under about 465) can have a bankruptcy on record. */
const PUBLIC_RECORD_QUALITY = 0.3;
/** Collections and chapter 13 filings leave the file after seven years, chapter 7 after ten (FCRA §605). */
const SEVEN_YEARS_DAYS = 2557;
const TEN_YEARS_DAYS = 3652;
/** Soft inquiries are shown for two years. */
const SOFT_INQUIRY_DAYS_SHOWN = 730;
/** Days between two soft inquiries: any two years then hold one to four of them. */
const SOFT_INQUIRY_GAP_DAYS = [200, 540] as const;
/** The first soft inquiry falls this long before the anchor, so a file from about two years before it on has some. */
const SOFT_INQUIRIES_FROM_DAYS = 1500;

/** A bankruptcy as drawn: how it ends and when, shown as `filed` until that day comes. */
export interface SandboxPublicRecord {
  type: PublicRecordType;
  filedOn: string;
  outcome: 'discharged' | 'dismissed';
  resolvesOn: string;
  court: string;
}

/** The report's records that are not accounts, from the report's stream (never the file's figures' streams). */
export interface ReportRecords {
  collections: Collection[];
  publicRecords: SandboxPublicRecord[];
  employers: ReportedEmployer[];
}

const byDate =
  <T>(dateOf: (item: T) => string) =>
  (a: T, b: T) =>
    dateOf(a).localeCompare(dateOf(b));

/** Days of credit history before the anchor, for dating what happened in it. */
const historyDays = (creditYears: number, atMostYears: number) => Math.round(Math.min(creditYears, atMostYears) * 365.25);

const drawCollections = (r: MonthStream, creditYears: number): Collection[] => {
  const creditors = [...LENDERS.credit_card, ...LENDERS.personal_loan, ...MEDICAL_AND_UTILITY_CREDITORS];
  const span = historyDays(creditYears, 5);
  return Array.from({ length: r.int(0, 2) }, () => {
    const reportedAgo = r.int(60, span);
    const originalAmount = Math.round(150 + 3850 * r.next() ** 2);
    const paidAgo = r.chance(0.35) ? r.int(1, reportedAgo - 30) : null;
    return {
      agency: r.pick(COLLECTION_AGENCIES),
      originalCreditor: r.pick(creditors),
      reportedOn: daysBeforeAnchor(reportedAgo),
      originalAmount,
      balance: paidAgo === null ? originalAmount : 0,
      paidOn: paidAgo === null ? null : daysBeforeAnchor(paidAgo),
    };
  })
    .sort(byDate((c) => c.reportedOn))
    .map((collection, index) => ({ id: `col_${index + 1}`, ...collection }));
};

/** A chapter 7 discharged four months after filing, or a chapter 13 plan discharged after 3 or 5 years (or dismissed). */
const drawPublicRecords = (r: MonthStream, creditYears: number, pastAddresses: PastAddress[]): SandboxPublicRecord[] => {
  const span = historyDays(creditYears, 7);
  if (!r.chance(0.4) || span < 730) return [];
  const filedOn = daysBeforeAnchor(r.int(730, span));
  // The court of where the person lived then; the enrolment address is outside the seed, so the latest past one else.
  const livedAt = pastAddresses.find((a) => a.from <= filedOn && filedOn <= a.to) ?? pastAddresses[0];
  const court = BANKRUPTCY_COURTS[livedAt?.state ?? ''] ?? 'U.S. Bankruptcy Court, District of Colorado';
  if (r.chance(0.6)) {
    return [{ type: 'bankruptcy_chapter_7', filedOn, outcome: 'discharged', resolvesOn: addMonths(filedOn, 4), court }];
  }
  const dismissed = r.chance(0.3);
  const months = dismissed ? r.int(6, 30) : r.pick([36, 60]);
  return [
    {
      type: 'bankruptcy_chapter_13',
      filedOn,
      outcome: dismissed ? 'dismissed' : 'discharged',
      resolvesOn: addMonths(filedOn, months),
      court,
    },
  ];
};

const drawEmployers = (r: MonthStream, creditYears: number): ReportedEmployer[] => {
  const span = Math.max(60, historyDays(creditYears, 12));
  const first = r.pick(EMPLOYERS);
  const names = r.chance(0.5) ? [first, r.pick(EMPLOYERS.filter((name) => name !== first))] : [first];
  return names.map((name) => ({ name, reportedOn: daysBeforeAnchor(r.int(30, span)) })).sort(byDate((e) => e.reportedOn));
};

/**
 * Collections (weak files only, never the quiet story), a bankruptcy (the weakest files, sometimes) and employers,
 * all dated before the anchor.
 */
export const reportRecords = (
  r: MonthStream,
  quality: number,
  story: SandboxStory,
  creditYears: number,
  pastAddresses: PastAddress[],
): ReportRecords => {
  const derogatory = story !== 'quiet';
  const collections = derogatory && quality < WEAK_FILE_QUALITY ? drawCollections(r, creditYears) : [];
  const publicRecords = derogatory && quality < PUBLIC_RECORD_QUALITY ? drawPublicRecords(r, creditYears, pastAddresses) : [];
  return { collections, publicRecords, employers: drawEmployers(r, creditYears) };
};

/** Collections reported by `today` and not yet seven years old; one paid after `today` is still owed then. */
export const collectionsOn = (collections: Collection[], today: string, fileDay: Date): Collection[] => {
  const droppedBefore = daysBeforeDay(fileDay, SEVEN_YEARS_DAYS);
  return collections
    .filter((c) => c.reportedOn <= today && c.reportedOn > droppedBefore)
    .map((c) => (c.paidOn !== null && c.paidOn > today ? { ...c, balance: c.originalAmount, paidOn: null } : c));
};

export const publicRecordsOn = (records: SandboxPublicRecord[], today: string, fileDay: Date): PublicRecord[] =>
  records
    .filter((p) => {
      const keptDays = p.type === 'bankruptcy_chapter_7' ? TEN_YEARS_DAYS : SEVEN_YEARS_DAYS;
      return p.filedOn <= today && p.filedOn > daysBeforeDay(fileDay, keptDays);
    })
    .map(({ type, filedOn, outcome, resolvesOn, court }) => {
      const resolved = resolvesOn <= today;
      return { type, status: resolved ? outcome : 'filed', filedOn, resolvedOn: resolved ? resolvesOn : null, court };
    });

export const employersOn = (employers: ReportedEmployer[], today: string): ReportedEmployer[] =>
  employers.filter((e) => e.reportedOn <= today);

/**
 * Soft inquiries of the two years to `today`, oldest first. They come at intervals of 200–540 days, from a stream that
 * does not depend on the day asked: a later file has the same ones plus those since, less those older than two years.
 */
export const softInquiriesOn = (reportKey: number, today: string, fileDay: Date): Inquiry[] => {
  const r = new MonthStream(reportKey, REPORT_STREAMS.softInquiries);
  const shownAfter = daysBeforeDay(fileDay, SOFT_INQUIRY_DAYS_SHOWN);
  const [minGap, maxGap] = SOFT_INQUIRY_GAP_DAYS;
  const list: Inquiry[] = [];
  for (let ago = SOFT_INQUIRIES_FROM_DAYS - r.int(0, maxGap); ; ago -= r.int(minGap, maxGap)) {
    const date = daysBeforeAnchor(ago);
    if (date > today) break;
    const source = r.chance(0.3) ? OWN_CHECK_SOURCE : r.pick(SOFT_INQUIRY_SOURCES);
    if (date > shownAfter) list.push({ source, date });
  }
  return list;
};

/** A name as bureaus print it from the identity they matched: each word (and hyphenated part) capitalised, spacing collapsed. */
const capitalised = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/(^|[ '’-])(\S)/g, (_match, before: string, letter: string) => before + letter.toUpperCase());

/**
 * The names on file: the full name and the first-initial form lenders often report ("Ana Ruiz", "A Ruiz"). From the
 * normalised identity, so "ANA" and "Ana" give the same file.
 */
export const namesOf = (subject: CreditSubject): string[] => {
  const first = capitalised(subject.firstName);
  const last = capitalised(subject.lastName);
  const full = `${first} ${last}`;
  const initial = `${Array.from(first)[0] ?? ''} ${last}`;
  return full === initial ? [full] : [full, initial];
};

export const yearOfBirthOf = (subject: CreditSubject): number | null => {
  const year = Number(subject.dateOfBirth.slice(0, 4));
  return Number.isInteger(year) && year > 0 ? year : null;
};
