import type { TUser } from '@credit/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

/** The token's enrolled user; 403 USER_NOT_ENROLLED before enrolment (App shows the form then). */
export const meQuery = () =>
  queryOptions({
    queryKey: ['me'] as const,
    queryFn: async ({ signal }) => (await apiRequest<TUser>('GET', '/v1/me', { signal })).data,
    staleTime: 30_000,
  });
