import type { TCreditBureau } from '@credit/contract';
import type { ConsumerFlagType } from '../../bureau/provider.ts';
import { ACCOUNT_LABELS, type AlertDraft, usd } from '../alerts/service.ts';
import type { FileSnapshot } from './file-snapshot.ts';

// The words of each alert a file difference raises. Titles and messages follow the sandbox alert helper's, so a
// partner sees the same copy whichever produced an alert; `data` per type is documented in docs/partner/alerts.md.
// An alert about an account names it by `accountId`, the report's id for it (credit/account-id.ts), so the account is
// found in the user's credit report.

/** Utilisation at or above this share of the card limits raises `high_utilization` when crossed from below. */
export const HIGH_UTILIZATION_PERCENT = 30;

type Account = FileSnapshot['accounts'][number];

export const newInquiryDraft = (inquiry: FileSnapshot['inquiries'][number]): AlertDraft => ({
  type: 'new_inquiry',
  title: `New credit inquiry from ${inquiry.source}`,
  message: `${inquiry.source} checked your credit on ${inquiry.date}. If you did not apply for credit with them, contact them and the bureau.`,
  severity: 'info',
  data: { inquirySource: inquiry.source, inquiryDate: inquiry.date },
});

export const newAccountDraft = (account: Account, accountId: string): AlertDraft => {
  const label = ACCOUNT_LABELS[account.kind];
  return {
    type: 'new_account',
    title: `New ${label} opened with ${account.lender}`,
    message: `A ${label} with ${account.lender} was reported on your credit file. If you did not open it, contact ${account.lender} right away.`,
    severity: 'info',
    data: { accountId, lender: account.lender, accountType: account.kind, openedDate: account.openedOn },
  };
};

export const accountClosedDraft = (account: Account, closedOn: string, accountId: string): AlertDraft => {
  const label = ACCOUNT_LABELS[account.kind];
  const why =
    account.kind === 'credit_card'
      ? `Closing a card can raise your utilization; if you did not ask for this, contact ${account.lender}.`
      : `A loan closes when it is paid off; if yours was not, contact ${account.lender}.`;
  return {
    type: 'account_closed',
    title: `Your ${label} with ${account.lender} was closed`,
    message: `${account.lender} reported your ${label} as closed. ${why}`,
    severity: 'info',
    data: { accountId, lender: account.lender, accountType: account.kind, closedDate: closedOn },
  };
};

export const latePaymentDraft = (account: Account, reportedDate: string, accountId: string): AlertDraft => {
  const label = ACCOUNT_LABELS[account.kind];
  return {
    type: 'late_payment',
    title: `Late payment reported on your ${label}`,
    message: `${account.lender} reported a payment 30 days late on your ${label}. Bring the account current as soon as you can; late payments weigh most on your score.`,
    severity: 'warning',
    // Bureaus count a payment late once it is 30 days past due.
    data: {
      accountId,
      lender: account.lender,
      accountType: account.kind,
      daysLate: 30,
      reportedDate,
      latePayments: account.latePayments,
    },
  };
};

export const highUtilizationDraft = ({ utilizationPercent, totalBalance, totalLimit }: FileSnapshot): AlertDraft => ({
  type: 'high_utilization',
  title: `Your card utilization is ${utilizationPercent}%`,
  message: `You are using ${usd(totalBalance)} of your ${usd(totalLimit)} in card credit. Keeping it under ${HIGH_UTILIZATION_PERCENT}% helps your score.`,
  severity: 'warning',
  data: { utilizationPercent, totalBalance, totalLimit, thresholdPercent: HIGH_UTILIZATION_PERCENT },
});

export const addressChangeDraft = (address: FileSnapshot['addresses'][number]): AlertDraft => ({
  type: 'address_change',
  title: 'New address reported on your credit file',
  message: `An address in ${address.city}, ${address.state} was added to your credit file. If you did not move, contact the bureau.`,
  severity: 'warning',
  // City and state only: a street address in an alert (and every webhook copy of it) is more PII than it needs.
  data: { city: address.city, state: address.state, reportedDate: address.reportedOn },
});

const FLAG_COPY: Record<ConsumerFlagType, { title: string; what: string }> = {
  fraud_alert: {
    title: 'A fraud alert was placed on your credit file',
    what: 'a fraud alert',
  },
  active_duty_alert: {
    title: 'An active-duty alert was placed on your credit file',
    what: 'an active-duty military alert',
  },
};

export const fraudAlertDraft = (flag: FileSnapshot['flags'][number], bureau: TCreditBureau): AlertDraft => {
  const copy = FLAG_COPY[flag.type];
  return {
    type: 'fraud_alert',
    title: copy.title,
    message: `${bureau} has had ${copy.what} on your file since ${flag.placedOn}: lenders must confirm it is you before opening credit in your name. If you did not ask for it, someone may be using your identity: contact ${bureau}.`,
    severity: 'critical',
    data: { reason: `${flag.type}_placed`, source: bureau, reportedDate: flag.placedOn },
  };
};
