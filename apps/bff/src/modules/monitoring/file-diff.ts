import { isoDate } from '../../bureau/dates.ts';
import type { AlertDraft } from '../alerts/service.ts';
import { accountIdOf } from '../credit/service.ts';
import {
  accountClosedDraft,
  addressChangeDraft,
  fraudAlertDraft,
  HIGH_UTILIZATION_PERCENT,
  highUtilizationDraft,
  latePaymentDraft,
  newAccountDraft,
  newInquiryDraft,
} from './file-alert-drafts.ts';
import type { FileSnapshot } from './file-snapshot.ts';

export { HIGH_UTILIZATION_PERCENT } from './file-alert-drafts.ts';

/**
 * One alert a file difference calls for. `key` names what it is about, stable across retries and re-pulls and
 * unique per user: the job raises an alert only for a key it has not stored before, so the same inquiry,
 * account, late payment, address or flag never alerts twice.
 */
export interface DetectedAlert {
  key: string;
  draft: AlertDraft;
}

/** At the first pull, inquiries this recent are news to the customer; older ones are history. */
export const FIRST_PULL_INQUIRY_DAYS = 30;

const inquiryKey = (i: FileSnapshot['inquiries'][number]) => `inquiry:${i.source}:${i.date}`;
const addressKey = (a: FileSnapshot['addresses'][number]) => `address:${a.zipCode}:${a.reportedOn}`;
const flagKey = (f: FileSnapshot['flags'][number]) => `flag:${f.type}:${f.placedOn}`;

const flagAlerts = (next: FileSnapshot, known: Set<string>): DetectedAlert[] =>
  next.flags
    .filter((flag) => !known.has(flagKey(flag)))
    .map((flag) => ({ key: flagKey(flag), draft: fraudAlertDraft(flag, next.bureau) }));

/**
 * The first pull after verification: what a customer should see at once (inquiries from the last 30 days, the
 * flags on file) and nothing else, so a whole file's history does not arrive as a storm of alerts.
 */
const firstPullAlerts = (next: FileSnapshot, asOf: Date): DetectedAlert[] => {
  const since = isoDate(new Date(asOf.getTime() - FIRST_PULL_INQUIRY_DAYS * 86_400_000));
  const today = isoDate(asOf);
  return [
    ...flagAlerts(next, new Set()),
    ...next.inquiries
      .filter((i) => i.date >= since && i.date <= today)
      .map((i) => ({ key: inquiryKey(i), draft: newInquiryDraft(i) })),
  ];
};

const accountAlerts = (previous: FileSnapshot, next: FileSnapshot, asOf: Date, userId: string): DetectedAlert[] => {
  const before = new Map(previous.accounts.map((a) => [a.id, a]));
  const alerts: DetectedAlert[] = [];
  for (const account of next.accounts) {
    const was = before.get(account.id);
    const accountId = accountIdOf(userId, account.id);
    if (!was) alerts.push({ key: `account-opened:${account.id}`, draft: newAccountDraft(account, accountId) });
    if (account.closedOn !== null && (was === undefined || was.closedOn === null)) {
      alerts.push({ key: `account-closed:${account.id}`, draft: accountClosedDraft(account, account.closedOn, accountId) });
    }
    if (account.latePayments > (was?.latePayments ?? 0)) {
      alerts.push({
        key: `late:${account.id}:${account.latePayments}`,
        draft: latePaymentDraft(account, isoDate(asOf), accountId),
      });
    }
  }
  return alerts;
};

/**
 * The alerts that the difference between the previous file and this one calls for (`previous` null: the first
 * pull after verification). Pure: the job stores the keys and the alerts. `score_change` is not here: the job
 * records the score through the score-change rule, which raises it past the threshold. `userId` is whose file it is:
 * an account alert names the account by the user's report id for it.
 */
export const detectAlerts = (previous: FileSnapshot | null, next: FileSnapshot, asOf: Date, userId: string): DetectedAlert[] => {
  if (previous === null) return firstPullAlerts(next, asOf);
  const knownInquiries = new Set(previous.inquiries.map(inquiryKey));
  const knownAddresses = new Set(previous.addresses.map(addressKey));
  const crossedUtilization =
    previous.utilizationPercent < HIGH_UTILIZATION_PERCENT && next.utilizationPercent >= HIGH_UTILIZATION_PERCENT;
  return [
    ...flagAlerts(next, new Set(previous.flags.map(flagKey))),
    ...next.inquiries
      .filter((i) => !knownInquiries.has(inquiryKey(i)))
      .map((i) => ({ key: inquiryKey(i), draft: newInquiryDraft(i) })),
    ...accountAlerts(previous, next, asOf, userId),
    ...(crossedUtilization ? [{ key: `utilization:${isoDate(asOf)}`, draft: highUtilizationDraft(next) }] : []),
    ...next.addresses
      .filter((a) => !knownAddresses.has(addressKey(a)))
      .map((a) => ({ key: addressKey(a), draft: addressChangeDraft(a) })),
  ];
};
