import type { DatedOffer } from './catalogue.ts';
import { type OfferSavings, type RefinanceableAccount, savingsFor } from './savings.ts';

export interface RankedOffer {
  offer: DatedOffer;
  preQualified: boolean;
  /** What the offer would save the user on an account on their file; null when nothing, or not pre-qualified. */
  estimatedSavings: OfferSavings | null;
}

/** Pre-qualification is a score threshold per offer: the provider's minimum score. */
export const isPreQualified = (offer: DatedOffer, score: number): boolean => score >= offer.minScore;

/**
 * Best fit for a score:
 * 1. pre-qualified offers first, the most demanding threshold the user meets first (a 780 score sees
 *    premium cards before a secured card);
 * 2. then the others, the nearest threshold first (what the user is closest to reaching);
 * ties: lower `apr.min` first, then `offerId`, so the order is total and stable across pages.
 * Both groups amount to "closest threshold to the score first".
 */
export const rankForScore = (offers: readonly DatedOffer[], score: number): RankedOffer[] =>
  offers
    .map((offer) => ({ offer, preQualified: isPreQualified(offer, score), estimatedSavings: null }))
    .sort(
      (a, b) =>
        Number(b.preQualified) - Number(a.preQualified) ||
        Math.abs(score - a.offer.minScore) - Math.abs(score - b.offer.minScore) ||
        a.offer.apr.min - b.offer.apr.min ||
        (a.offer.offerId < b.offer.offerId ? -1 : 1),
    );

/** Best fit for a user: pre-qualified offers with savings first, largest total first; the rest keep the score's order. */
export const rankForUser = (
  offers: readonly DatedOffer[],
  score: number,
  accounts: readonly RefinanceableAccount[],
): RankedOffer[] => {
  const ranked = rankForScore(offers, score);
  if (accounts.length === 0) return ranked;
  return ranked
    .map((r) => (r.preQualified ? { ...r, estimatedSavings: savingsFor(r.offer, score, accounts) } : r))
    .sort((a, b) => (b.estimatedSavings?.total ?? -1) - (a.estimatedSavings?.total ?? -1));
};
