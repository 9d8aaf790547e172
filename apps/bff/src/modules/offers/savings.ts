import { SCORE_MAX, type TOffer } from '@credit/contract';
import { amortizedPayment } from '../../bureau/amortization.ts';
import { monthsSince } from '../../bureau/dates.ts';
import type { CreditFile, TradelineKind } from '../../bureau/provider.ts';
import type { CatalogueEntry } from './catalogue.ts';

export type OfferSavings = NonNullable<TOffer['estimatedSavings']>;

/** A card balance has no term: the savings compare paying it off over this many months at each APR. */
export const CARD_PAYOFF_MONTHS = 36;

/** An open account on the file that an offer could pay off and replace, with what its savings are worked out from. */
export interface RefinanceableAccount {
  /** The report's id for it (`acc_…`). */
  accountId: string;
  kind: TradelineKind;
  balance: number;
  /** In percent. */
  apr: number;
  /** Today's payment: the lender's for a loan (else the amortized one), the 36-month payoff for a card. */
  monthlyPayment: number;
  /** Loans: the term left; cards: CARD_PAYOFF_MONTHS. */
  remainingMonths: number;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The open accounts of a file that have what a refinance is priced from: a balance, an APR and, for a loan, a term
 * not yet run out. `accountIdOf` names each the way the user's report does.
 */
export const refinanceableAccounts = (
  file: CreditFile,
  asOf: Date,
  accountIdOf: (tradelineId: string) => string,
): RefinanceableAccount[] =>
  file.tradelines.flatMap((t): RefinanceableAccount[] => {
    if (t.closedOn !== null || t.status !== 'open' || t.apr === null || t.balance <= 0) return [];
    if (t.kind === 'credit_card') {
      const monthlyPayment = amortizedPayment(t.balance, t.apr, CARD_PAYOFF_MONTHS);
      return [
        {
          accountId: accountIdOf(t.id),
          kind: t.kind,
          balance: t.balance,
          apr: t.apr,
          monthlyPayment,
          remainingMonths: CARD_PAYOFF_MONTHS,
        },
      ];
    }
    if (t.termMonths === null) return [];
    const remainingMonths = t.termMonths - monthsSince(t.openedOn, asOf);
    if (remainingMonths <= 0) return [];
    const monthlyPayment = t.monthlyPayment ?? amortizedPayment(t.balance, t.apr, remainingMonths);
    return [{ accountId: accountIdOf(t.id), kind: t.kind, balance: t.balance, apr: t.apr, monthlyPayment, remainingMonths }];
  });

/**
 * The APR an offer gives a score: its highest at its minimum score falling evenly to its lowest at 850, in hundredths
 * of a percent and never outside its range.
 */
export const offeredApr = (offer: Pick<CatalogueEntry, 'apr' | 'minScore'>, score: number): number => {
  const span = SCORE_MAX - offer.minScore;
  const reached = span > 0 ? Math.max(0, Math.min(1, (score - offer.minScore) / span)) : 1;
  const apr = round2(offer.apr.max - (offer.apr.max - offer.apr.min) * reached);
  const [lowest, highest] = [Math.ceil(offer.apr.min * 100 - 1e-9) / 100, Math.floor(offer.apr.max * 100 + 1e-9) / 100];
  return Math.max(lowest, Math.min(highest, apr));
};

/** What moving one account to the offer saves, unrounded; undefined when the offer cannot take it for less. */
const savingOn = (
  offer: Pick<CatalogueEntry, 'refinances' | 'creditLimit'>,
  apr: number,
  account: RefinanceableAccount,
): { monthly: number; total: number } | undefined => {
  if (!offer.refinances.includes(account.kind)) return undefined;
  const range = offer.creditLimit;
  if (range && (account.balance < range.min || account.balance > range.max)) return undefined;
  // Savings come from a lower rate; a payment that only looks lower (a loan paid ahead of schedule) is not one.
  if (apr >= account.apr) return undefined;
  const monthly = account.monthlyPayment - amortizedPayment(account.balance, apr, account.remainingMonths);
  if (monthly < 1) return undefined;
  return { monthly, total: monthly * account.remainingMonths };
};

/**
 * The offer's savings at `score` against the account it saves most on (ties: larger monthly, then account id), in
 * whole dollars; null when none qualifies. Pre-qualification is the caller's to decide.
 */
export const savingsFor = (
  offer: Pick<CatalogueEntry, 'refinances' | 'creditLimit' | 'apr' | 'minScore'>,
  score: number,
  accounts: readonly RefinanceableAccount[],
): OfferSavings | null => {
  if (offer.refinances.length === 0) return null;
  const apr = offeredApr(offer, score);
  let best: { account: RefinanceableAccount; monthly: number; total: number } | undefined;
  for (const account of accounts) {
    const saving = savingOn(offer, apr, account);
    if (!saving) continue;
    const better =
      !best ||
      saving.total > best.total ||
      (saving.total === best.total &&
        (saving.monthly > best.monthly || (saving.monthly === best.monthly && account.accountId < best.account.accountId)));
    if (better) best = { account, ...saving };
  }
  if (!best) return null;
  return {
    monthly: Math.round(best.monthly),
    total: Math.round(best.total),
    comparedToAccountId: best.account.accountId,
    offeredApr: apr,
  };
};

/** The accounts some offer saves on at 850: savings only grow with the score, so no other account ever qualifies. */
export const accountsWorthComparing = (
  offers: readonly Pick<CatalogueEntry, 'refinances' | 'creditLimit' | 'apr' | 'minScore'>[],
  accounts: readonly RefinanceableAccount[],
): RefinanceableAccount[] => accounts.filter((account) => offers.some((offer) => savingsFor(offer, SCORE_MAX, [account])));
