import type { TOffer, TOfferClick, TOfferClickInput, TOfferType } from '@credit/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ApiClient, newIdempotencyKey } from './client.ts';

const offersPath = (userId: string) => `/v1/users/${encodeURIComponent(userId)}/offers`;

/** Every offers list of the user (one per type filter). */
export const offersKey = (userId: string) => ['offers', userId] as const;

/** Active offers, best match first; `type` undefined lists every type. */
export const offersQuery = (api: ApiClient, userId: string, type: TOfferType | undefined) =>
  queryOptions({
    queryKey: [...offersKey(userId), type ?? 'all'] as const,
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams({ limit: '50' });
      if (type) query.set('type', type);
      return (await api.request<TOffer[]>('GET', `${offersPath(userId)}?${query}`, { signal })).data;
    },
  });

/**
 * Records the click before the application opens, so the partner is credited. One idempotency key per
 * press: a retried request after a network failure is counted once.
 */
export const recordOfferClick = async (
  api: ApiClient,
  userId: string,
  offerId: string,
  input: TOfferClickInput,
): Promise<TOfferClick> =>
  (
    await api.request<TOfferClick>('POST', `${offersPath(userId)}/${encodeURIComponent(offerId)}/click`, {
      body: input,
      idempotencyKey: newIdempotencyKey(),
    })
  ).data;
