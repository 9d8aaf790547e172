import type { CreditSubject, TriggerType } from '../provider.ts';
import { baseFile } from './base-file.ts';
import { dayOfMonth, monthIndexOf } from './calendar.ts';
import { SANDBOX_SSN, storyOf } from './magic-ssn.ts';
import { MonthStream } from './month-stream.ts';
import { applyMonth, type FileState, initialState } from './monthly-events.ts';

/** A day on which the sandbox file changes in a way a bureau reports as a trigger. */
export interface SandboxFileChange {
  /** YYYY-MM-DD: the month's reporting day, the date of every event of that month. */
  on: string;
  types: TriggerType[];
}

/** How far ahead the next change is looked for: an ordinary file may stay unchanged for years. */
const LOOK_AHEAD_MONTHS = 24;

interface Counts {
  inquiries: number;
  accounts: number;
  closed: number;
  late: number;
  addresses: number;
  fraud: number;
  activeDuty: number;
}

const countsOf = (state: FileState): Counts => ({
  inquiries: state.inquiries.length,
  accounts: state.accounts.length,
  closed: state.accounts.filter((a) => a.closedOn !== null).length,
  late: state.accounts.reduce((sum, a) => sum + a.latePayments, 0),
  addresses: state.reported.length,
  fraud: state.flags.filter((f) => f.type === 'fraud_alert').length,
  activeDuty: state.flags.filter((f) => f.type === 'active_duty_alert').length,
});

const typesBetween = (before: Counts, after: Counts): TriggerType[] => {
  const types: TriggerType[] = [];
  if (after.inquiries > before.inquiries) types.push('inquiry');
  if (after.accounts > before.accounts) types.push('new_account');
  if (after.closed > before.closed) types.push('closed_account');
  if (after.late > before.late) types.push('late_payment');
  if (after.addresses > before.addresses) types.push('address_change');
  if (after.fraud > before.fraud) types.push('fraud_alert');
  if (after.activeDuty > before.activeDuty) types.push('active_duty_alert');
  return types;
};

/**
 * The changes a bureau would report for this file on days after `after` up to `until` (both instants; each change is
 * dated on its month's reporting day), replaying the same monthly events the file is built from. A frozen file reports
 * nothing, and the quiet story never changes.
 */
export const sandboxFileChanges = (subject: CreditSubject, after: Date, until: Date): SandboxFileChange[] => {
  const story = storyOf(subject.ssnLast4);
  if (story === 'quiet' || subject.ssnLast4 === SANDBOX_SSN.frozen) return [];
  const base = baseFile(subject, story);
  const state = initialState(base, story);
  const afterDay = after.toISOString().slice(0, 10);
  const untilDay = until.toISOString().slice(0, 10);
  const changes: SandboxFileChange[] = [];
  for (let month = 0; month <= monthIndexOf(until); month++) {
    const r = new MonthStream(base.key, month);
    const day = dayOfMonth(month, r.int(1, 28));
    if (day > untilDay) break;
    const before = countsOf(state);
    applyMonth(state, base, r, month, day);
    if (day <= afterDay) continue;
    const types = typesBetween(before, countsOf(state));
    if (types.length > 0) changes.push({ on: day, types });
  }
  return changes;
};

/** The first change after `after` (within two years), or null. */
export const nextSandboxFileChange = (subject: CreditSubject, after: Date): SandboxFileChange | null => {
  const until = new Date(after);
  until.setUTCMonth(until.getUTCMonth() + LOOK_AHEAD_MONTHS);
  return sandboxFileChanges(subject, after, until)[0] ?? null;
};
