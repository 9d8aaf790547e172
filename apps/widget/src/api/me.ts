import type { CreditClient } from '@credit/sdk/browser';
import { queryOptions } from '@tanstack/react-query';

/** Enrolment, verification and a host refresh change the user's status. */
export const meKey = ['me'] as const;

/**
 * The token's enrolled user. Only asked once the session named an enrolled user: before enrolment it is a
 * 403 USER_NOT_ENROLLED, which the browser logs as an error although nothing is wrong.
 */
export const meQuery = (api: CreditClient) =>
  queryOptions({
    queryKey: meKey,
    queryFn: ({ signal }) => api.call('getMe', { signal }),
    staleTime: 30_000,
  });
