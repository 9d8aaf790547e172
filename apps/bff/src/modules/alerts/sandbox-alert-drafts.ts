import type { TAlertType } from '@credit/contract';
import { isoDate } from '../../bureau/dates.ts';
import { fileFigures } from '../../bureau/factors.ts';
import type { CreditFile, CreditSubject, Tradeline } from '../../bureau/provider.ts';
import { accountIdOf } from '../credit/service.ts';
import { ACCOUNT_LABELS, type AlertDraft, scoreChangeAlertDraft, usd } from './alert-draft.ts';

/** What a sandbox alert is drawn from: the user's file, where they live and (for score alerts) their last two scores. */
export interface SandboxAlertSource {
  /** Whose file it is: an account alert names the account by the user's report id for it, as monitoring's do. */
  userId: string;
  file: CreditFile;
  subject: Pick<CreditSubject, 'address'>;
  scores?: { previous: number; current: number };
  asOf: Date;
}

/** The newest by a date field (YYYY-MM-DD compares as text); ties keep file order, so the choice is stable. */
const newestBy = <T>(items: T[], date: (item: T) => string | null): T | undefined =>
  items.reduce<T | undefined>((best, item) => {
    const d = date(item);
    if (d === null) return best;
    const b = best === undefined ? null : date(best);
    return b === null || d > b ? item : best;
  }, undefined);

/** An account to talk about when the file has none of the kind a rule prefers. */
const anyAccount = (file: CreditFile): Tradeline | undefined => file.tradelines.find((t) => !t.closedOn) ?? file.tradelines[0];

/** Who the alert names when a file has no tradelines at all (a thin sandbox file). */
const UNKNOWN_LENDER = 'Unknown lender';

const accountFields = (account: Tradeline | undefined) => ({
  lender: account?.lender ?? UNKNOWN_LENDER,
  accountType: account?.kind ?? 'credit_card',
});

/** The report's id for the account an alert is about; null for a thin file with no account to name. */
const accountIdFor = (userId: string, account: Tradeline | undefined): string | null =>
  account ? accountIdOf(userId, account.id) : null;

const newInquiry = ({ file, asOf }: SandboxAlertSource): AlertDraft => {
  // The most recent hard inquiry on the file; a file without one gets a fresh inquiry from an existing lender.
  const inquiry = newestBy(file.inquiries, (i) => i.date) ?? {
    source: accountFields(anyAccount(file)).lender,
    date: isoDate(asOf),
  };
  return {
    type: 'new_inquiry',
    title: `New credit inquiry from ${inquiry.source}`,
    message: `${inquiry.source} checked your credit on ${inquiry.date}. If you did not apply for credit with them, contact them and the bureau.`,
    severity: 'info',
    data: { inquirySource: inquiry.source, inquiryDate: inquiry.date },
  };
};

const newAccount = ({ userId, file }: SandboxAlertSource): AlertDraft => {
  const account = newestBy(file.tradelines, (t) => t.openedOn) ?? anyAccount(file);
  const { lender, accountType } = accountFields(account);
  const label = ACCOUNT_LABELS[accountType];
  return {
    type: 'new_account',
    title: `New ${label} opened with ${lender}`,
    message: `A ${label} with ${lender} was reported on your credit file. If you did not open it, contact ${lender} right away.`,
    severity: 'info',
    data: { accountId: accountIdFor(userId, account), lender, accountType, openedDate: account?.openedOn ?? null },
  };
};

const accountClosed = ({ userId, file, asOf }: SandboxAlertSource): AlertDraft => {
  // The most recently closed account; a file with none closed reports one of its open accounts as closed today.
  const closed = newestBy(file.tradelines, (t) => t.closedOn);
  const account = closed ?? anyAccount(file);
  const { lender, accountType } = accountFields(account);
  const label = ACCOUNT_LABELS[accountType];
  return {
    type: 'account_closed',
    title: `Your ${label} with ${lender} was closed`,
    message: `${lender} reported your ${label} as closed. Closing a card can raise your utilization; if you did not ask for this, contact ${lender}.`,
    severity: 'info',
    data: { accountId: accountIdFor(userId, account), lender, accountType, closedDate: closed?.closedOn ?? isoDate(asOf) },
  };
};

const latePayment = ({ userId, file, asOf }: SandboxAlertSource): AlertDraft => {
  const account = file.tradelines.find((t) => t.latePayments > 0) ?? anyAccount(file);
  const { lender, accountType } = accountFields(account);
  const label = ACCOUNT_LABELS[accountType];
  return {
    type: 'late_payment',
    title: `Late payment reported on your ${label}`,
    message: `${lender} reported a payment 30 days late on your ${label}. Bring the account current as soon as you can; late payments weigh most on your score.`,
    severity: 'warning',
    data: { accountId: accountIdFor(userId, account), lender, accountType, daysLate: 30, reportedDate: isoDate(asOf) },
  };
};

const highUtilization = ({ file, asOf }: SandboxAlertSource): AlertDraft => {
  // The same figures as the CREDIT_UTILIZATION factor of the score, so the two never disagree.
  const { utilizationPercent, totalBalance, totalLimit } = fileFigures(file, asOf);
  return {
    type: 'high_utilization',
    title: `Your card utilization is ${utilizationPercent}%`,
    message: `You are using ${usd(totalBalance)} of your ${usd(totalLimit)} in card credit. Keeping it under 30% helps your score.`,
    severity: 'warning',
    data: { utilizationPercent, totalBalance, totalLimit },
  };
};

const addressChange = ({ subject, asOf }: SandboxAlertSource): AlertDraft => {
  // City and state only: a street address in an alert (and every webhook copy of it) is more PII than it needs.
  const { city, state } = subject.address;
  return {
    type: 'address_change',
    title: 'New address reported on your credit file',
    message: `An address in ${city}, ${state} was added to your credit file. If you did not move, contact the bureau.`,
    severity: 'warning',
    data: { city, state, reportedDate: isoDate(asOf) },
  };
};

const fraudAlert = ({ file, asOf }: SandboxAlertSource): AlertDraft => {
  const source = newestBy(file.inquiries, (i) => i.date)?.source ?? accountFields(anyAccount(file)).lender;
  return {
    type: 'fraud_alert',
    title: 'Possible fraud: an application in your name',
    message: `An application for credit with ${source} did not match your identity details. If it was not you, place a fraud alert or freeze with the bureau.`,
    severity: 'critical',
    data: { reason: 'identity_mismatch', source, reportedDate: isoDate(asOf) },
  };
};

const DRAFTS: Record<TAlertType, (source: SandboxAlertSource) => AlertDraft> = {
  score_change: ({ file, scores }) => {
    // Without stored scores, the file's last two monthly scores tell the same story.
    const [previous, current] = file.monthlyScores.slice(-2).map((m) => m.score);
    const move = scores ?? { previous: previous ?? 0, current: current ?? previous ?? 0 };
    return scoreChangeAlertDraft(move.previous, move.current);
  },
  new_inquiry: newInquiry,
  new_account: newAccount,
  account_closed: accountClosed,
  late_payment: latePayment,
  high_utilization: highUtilization,
  address_change: addressChange,
  fraud_alert: fraudAlert,
};

/** A realistic alert of `type` for a sandbox user, drawn from their own file so it agrees with their score screens. */
export const sandboxAlertDraft = (type: TAlertType, source: SandboxAlertSource): AlertDraft => DRAFTS[type](source);
