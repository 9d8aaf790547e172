import type { TAlert } from '@credit/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './client.ts';

const alertsPath = (userId: string) => `/v1/users/${encodeURIComponent(userId)}/alerts`;

/** Everything under this key is refetched after an alert changes (the list and the tab's unread badge). */
export const alertsKey = (userId: string) => ['alerts', userId] as const;

/** The inbox, newest first. Always refetched when shown: the bureau may have sent an alert since. */
export const alertsQuery = (userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'list'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest<TAlert[]>('GET', `${alertsPath(userId)}?status=all&sort=-createdAt&limit=100`, { signal })).data,
    staleTime: 0,
  });

/** How many alerts are unread, from the list total (one item fetched). */
export const unreadAlertCountQuery = (userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'unread-count'] as const,
    queryFn: async ({ signal }) => {
      const page = await apiRequest<TAlert[]>('GET', `${alertsPath(userId)}?status=unread&limit=1`, { signal });
      return page.pagination?.total ?? page.data.length;
    },
    staleTime: 0,
    refetchInterval: 60_000,
  });

export const markAlertRead = async (userId: string, alertId: string): Promise<TAlert> =>
  (await apiRequest<TAlert>('PATCH', `${alertsPath(userId)}/${encodeURIComponent(alertId)}`, { body: { status: 'read' } })).data;
