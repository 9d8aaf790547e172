import type { TOfferClick, TOfferClickInput, TOfferImpressions, TOfferType } from '@credit/contract';
import type { CreditClient } from '@credit/sdk/browser';
import { queryOptions } from '@tanstack/react-query';

/** Every offers list of the user (one per type filter). */
export const offersKey = (userId: string) => ['offers', userId] as const;

/** Active offers, best match first; `type` undefined lists every type. */
export const offersQuery = (api: CreditClient, userId: string, type: TOfferType | undefined) =>
  queryOptions({
    queryKey: [...offersKey(userId), type ?? 'all'] as const,
    queryFn: async ({ signal }) =>
      (await api.call('listUserOffers', { params: { userId }, query: { limit: 50, type }, signal })).data,
  });

/**
 * Records the click before the application opens, so the partner is credited. The SDK sends one
 * idempotency key per press: a retried request after a network failure is counted once.
 */
export const recordOfferClick = (
  api: CreditClient,
  userId: string,
  offerId: string,
  input: TOfferClickInput,
): Promise<TOfferClick> => api.call('recordOfferClick', { params: { userId, offerId }, body: input });

/** Offer cards the customer saw; the API counts each once a customer, offer and UTC day, and ignores unknown ids. */
export const recordOfferImpressions = (api: CreditClient, userId: string, offerIds: string[]): Promise<TOfferImpressions> =>
  api.call('recordOfferImpressions', { params: { userId }, body: { offerIds } });
