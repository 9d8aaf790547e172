import type { TCreditBureau } from '@credit/contract';
import { fileFigures } from '../../bureau/factors.ts';
import type { ConsumerFlagType, CreditFile, TradelineKind } from '../../bureau/provider.ts';

/**
 * What the next comparison needs from a pulled file, and no more: the job stores it sealed, one per user, so
 * it holds no street, balance per account or score history. Dates are YYYY-MM-DD as the bureau gave them.
 */
export interface FileSnapshot {
  v: 1;
  /** Who reported the file (a fraud alert names the bureau holding the flag). */
  bureau: TCreditBureau;
  /** The file's current score. */
  score: number;
  inquiries: { source: string; date: string }[];
  accounts: {
    id: string;
    lender: string;
    kind: TradelineKind;
    openedOn: string;
    closedOn: string | null;
    latePayments: number;
  }[];
  /** Card balances over the open cards' limit, the same figure as the CREDIT_UTILIZATION factor. */
  utilizationPercent: number;
  /** The cards' balance and the open cards' limit behind `utilizationPercent`, for the `high_utilization` alert. */
  totalBalance: number;
  totalLimit: number;
  /** Every address the bureau reports, without the street. */
  addresses: { city: string; state: string; zipCode: string; reportedOn: string }[];
  flags: { type: ConsumerFlagType; placedOn: string }[];
}

export const snapshotOf = (file: CreditFile, asOf: Date): FileSnapshot => {
  const { utilizationPercent, totalBalance, totalLimit } = fileFigures(file, asOf);
  return {
    v: 1,
    bureau: file.bureau,
    score: file.monthlyScores.at(-1)?.score ?? 0,
    inquiries: file.inquiries.map(({ source, date }) => ({ source, date })),
    accounts: file.tradelines.map(({ id, lender, kind, openedOn, closedOn, latePayments }) => ({
      id,
      lender,
      kind,
      openedOn,
      closedOn,
      latePayments,
    })),
    utilizationPercent,
    totalBalance,
    totalLimit,
    addresses: file.reportedAddresses.map(({ city, state, zipCode, reportedOn }) => ({ city, state, zipCode, reportedOn })),
    flags: file.flags.map(({ type, placedOn }) => ({ type, placedOn })),
  };
};
