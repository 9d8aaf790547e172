import type { MonitoringCadence } from '../../core/principal.ts';

/**
 * When a monitored customer's periods fall due. Monthly periods are calendar months anchored on the day of the month of
 * the first pull, clamped to the month's end (billing systems' rule: a start on the 31st renews on the 30th of April
 * and the 28th or 29th of February, then on the 31st again), so a year holds twelve periods in twelve distinct months.
 * Weekly periods are seven days. An operator's fixed `MONITORING_INTERVAL` (tests, benchmarks) replaces both.
 */

/** What decides a user's schedule: their client's cadence, unless the operator fixed an interval. */
export interface Schedule {
  cadence: MonitoringCadence;
  fixedIntervalMs?: number;
  /** The first pull: its day of the month and time of day anchor every monthly period. */
  anchor: Date;
}

const DAY_MS = 86_400_000;

const daysInMonth = (year: number, monthIndex: number) => new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();

/** The anchor's day and time of day in the month `months` after `from`'s month (UTC), clamped to that month's end. */
const anchoredInMonth = (from: Date, months: number, anchor: Date): Date => {
  const year = from.getUTCFullYear();
  const monthIndex = from.getUTCMonth() + months;
  const targetYear = year + Math.floor(monthIndex / 12);
  const targetMonth = ((monthIndex % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(targetYear, targetMonth));
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
};

/**
 * The due date that follows `due`. Monthly: the anchor's day in the next calendar month, so a schedule that was on
 * another rule (30-day steps) joins the calendar at its next period without a second pull in the same month.
 */
export const nextDueAfter = (due: Date, schedule: Schedule): Date => {
  if (schedule.fixedIntervalMs !== undefined) return new Date(due.getTime() + schedule.fixedIntervalMs);
  if (schedule.cadence === 'weekly') return new Date(due.getTime() + 7 * DAY_MS);
  return anchoredInMonth(due, 1, schedule.anchor);
};

/** Period `n`'s due date counted from the anchor (period 0 is the first pull itself). */
export const dueOfPeriod = (period: number, schedule: Schedule): Date => {
  const { anchor } = schedule;
  if (schedule.fixedIntervalMs !== undefined) return new Date(anchor.getTime() + period * schedule.fixedIntervalMs);
  if (schedule.cadence === 'weekly') return new Date(anchor.getTime() + period * 7 * DAY_MS);
  return anchoredInMonth(anchor, period, anchor);
};

/** The nominal length of a period in days, as the widget's consent text states it ("refreshed every 30 days"). */
export const periodDays = (schedule: Pick<Schedule, 'cadence' | 'fixedIntervalMs'>): number => {
  if (schedule.fixedIntervalMs !== undefined) return Math.max(1, Math.round(schedule.fixedIntervalMs / DAY_MS));
  return schedule.cadence === 'weekly' ? 7 : 30;
};
