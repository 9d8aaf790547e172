import type { CreditClient } from '@credit/sdk/browser';
import { queryOptions } from '@tanstack/react-query';

/** The user's consent: its current record, whether they must consent again, the terms, the history. */
export const consentKey = (userId: string) => ['consent', userId] as const;

export const consentQuery = (api: CreditClient, userId: string) =>
  queryOptions({
    queryKey: consentKey(userId),
    queryFn: ({ signal }) => api.call('getConsent', { params: { userId }, signal }),
  });

/**
 * Records the consumer's agreement under `termsVersion` (the version whose text they were shown). With the
 * widget's user token the API records the method as `widget`, with this request's IP address and browser.
 */
export const grantConsent = (api: CreditClient, userId: string, termsVersion: string) =>
  api.call('grantConsent', { params: { userId }, body: { termsVersion, method: 'widget' } });

/** Withdraws it: nothing is pulled from then on, and the partner hears `consent.withdrawn`. */
export const withdrawConsent = (api: CreditClient, userId: string) => api.call('withdrawConsent', { params: { userId } });
