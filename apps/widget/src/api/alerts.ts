import type { TAlert } from '@credit/contract';
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client.ts';

const alertsPath = (userId: string) => `/v1/users/${encodeURIComponent(userId)}/alerts`;

/** Everything under this key is refetched after an alert changes (the list and the tab's unread badge). */
export const alertsKey = (userId: string) => ['alerts', userId] as const;

/** How often an open widget looks for new alerts; react-query pauses it while the page is hidden. */
export const ALERTS_POLL_MS = 60_000;

/** The inbox, newest first. Always refetched when shown, and polled while shown: the bureau may send an alert any time. */
export const alertsQuery = (api: ApiClient, userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'list'] as const,
    queryFn: async ({ signal }) =>
      (await api.request<TAlert[]>('GET', `${alertsPath(userId)}?status=all&sort=-createdAt&limit=100`, { signal })).data,
    staleTime: 0,
    refetchInterval: ALERTS_POLL_MS,
  });

/** How many alerts are unread, from the list total (one item fetched). */
export const unreadAlertCountQuery = (api: ApiClient, userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'unread-count'] as const,
    queryFn: async ({ signal }) => {
      const page = await api.request<TAlert[]>('GET', `${alertsPath(userId)}?status=unread&limit=1`, { signal });
      return page.pagination?.total ?? page.data.length;
    },
    staleTime: 0,
    refetchInterval: ALERTS_POLL_MS,
  });

export const markAlertRead = async (api: ApiClient, userId: string, alertId: string): Promise<TAlert> =>
  (await api.request<TAlert>('PATCH', `${alertsPath(userId)}/${encodeURIComponent(alertId)}`, { body: { status: 'read' } })).data;
