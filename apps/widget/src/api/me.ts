import type { TUser } from '@credit/contract';
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client.ts';

/** Enrolment, verification and a host refresh change the user's status. */
export const meKey = ['me'] as const;

/**
 * The token's enrolled user. Only asked once the session named an enrolled user: before enrolment it is a
 * 403 USER_NOT_ENROLLED, which the browser logs as an error although nothing is wrong.
 */
export const meQuery = (api: ApiClient) =>
  queryOptions({
    queryKey: meKey,
    queryFn: async ({ signal }) => (await api.request<TUser>('GET', '/v1/me', { signal })).data,
    staleTime: 30_000,
  });
