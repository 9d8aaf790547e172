/**
 * The day every sandbox file is anchored at: the base file describes the person's history up to it, and
 * monthly events change the file after it. Fixed, so a file never depends on the day it is asked for
 * beyond which events have happened by then.
 */
export const ANCHOR = new Date('2025-01-01T00:00:00.000Z');
const ANCHOR_YEAR = ANCHOR.getUTCFullYear();
const DAY_MS = 86_400_000;
const ANCHOR_DAY = ANCHOR.getTime() / DAY_MS;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * Days since 1970-01-01 as YYYY-MM-DD, in integer arithmetic (Howard Hinnant's civil_from_days): a file dates
 * dozens of things and `Date#toISOString` was a third of the cost of building one.
 */
export const dayString = (epochDay: number): string => {
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return `${yoe + era * 400 + (month <= 2 ? 1 : 0)}-${pad2(month)}-${pad2(day)}`;
};

/** `days` days before the anchor, as YYYY-MM-DD. */
export const daysBeforeAnchor = (days: number): string => dayString(ANCHOR_DAY - days);

/** `days` days before `date`'s day (UTC), as YYYY-MM-DD: dates.ts's daysBefore without a Date per call. */
export const daysBeforeDay = (date: Date, days: number): string => dayString(Math.floor(date.getTime() / DAY_MS) - days);

/** Calendar months since the anchor's month: 0 for January 2025, -1 for December 2024. */
export const monthIndexOf = (date: Date): number => (date.getUTCFullYear() - ANCHOR_YEAR) * 12 + date.getUTCMonth();

/** Day `day` (1–28) of month `month` (a monthIndexOf value) as YYYY-MM-DD. */
export const dayOfMonth = (month: number, day: number): string =>
  `${ANCHOR_YEAR + Math.floor(month / 12)}-${pad2((((month % 12) + 12) % 12) + 1)}-${pad2(day)}`;

/** The monthIndexOf value of a YYYY-MM-DD or YYYY-MM date. */
export const monthIndexOfDay = (date: string): number =>
  (Number(date.slice(0, 4)) - ANCHOR_YEAR) * 12 + Number(date.slice(5, 7)) - 1;

/** Month `month` (a monthIndexOf value) as YYYY-MM. */
export const monthString = (month: number): string => dayOfMonth(month, 1).slice(0, 7);

/** A YYYY-MM-DD date `months` months later (day clamped to 28, so every month has it). */
export const addMonths = (date: string, months: number): string => {
  const month = (Number(date.slice(0, 4)) - ANCHOR_YEAR) * 12 + Number(date.slice(5, 7)) - 1 + months;
  return dayOfMonth(month, Math.min(28, Number(date.slice(8, 10))));
};

/** Whole months from one YYYY-MM-DD date to another (negative when `to` is earlier). */
export const monthsBetween = (from: string, to: string): number =>
  (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
  Number(to.slice(5, 7)) -
  Number(from.slice(5, 7)) -
  (Number(to.slice(8, 10)) < Number(from.slice(8, 10)) ? 1 : 0);
