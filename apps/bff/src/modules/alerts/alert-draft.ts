import type { TAlert, TAlertType } from '@credit/contract';
import type { TradelineKind } from '../../bureau/provider.ts';

/** What a rule decides about a new alert; `recordAlert` stores it and announces it. */
export interface AlertDraft {
  type: TAlertType;
  title: string;
  message: string;
  severity: TAlert['severity'];
  data: Record<string, unknown>;
}

const points = (n: number) => `${n} ${n === 1 ? 'point' : 'points'}`;

/**
 * A `score_change` alert, data exactly as the spec pins it: {previousScore, newScore, change}.
 * A drop is a `warning` (something the user may want to act on); a rise or no change is `info`.
 */
export const scoreChangeAlertDraft = (previousScore: number, newScore: number): AlertDraft => {
  const change = newScore - previousScore;
  const data = { previousScore, newScore, change };
  if (change > 0) {
    return {
      type: 'score_change',
      title: `Your score went up ${points(change)}`,
      message: `Your credit score rose from ${previousScore} to ${newScore}. Keep paying on time and keeping card balances low to hold on to it.`,
      severity: 'info',
      data,
    };
  }
  if (change < 0) {
    return {
      type: 'score_change',
      title: `Your score went down ${points(-change)}`,
      message: `Your credit score dropped from ${previousScore} to ${newScore}. Check your latest factors to see what changed.`,
      severity: 'warning',
      data,
    };
  }
  return {
    type: 'score_change',
    title: 'Your score did not change',
    message: `Your credit score is still ${newScore}.`,
    severity: 'info',
    data,
  };
};

/** How an alert names a kind of account, whichever rule raised it (monitoring's comparison, the sandbox helper). */
export const ACCOUNT_LABELS: Record<TradelineKind, string> = {
  credit_card: 'credit card',
  auto_loan: 'auto loan',
  student_loan: 'student loan',
  mortgage: 'mortgage',
  personal_loan: 'personal loan',
};

export const usd = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`;
