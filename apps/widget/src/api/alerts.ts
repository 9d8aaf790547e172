import type { TAlert } from '@credit/contract';
import type { CreditClient } from '@credit/sdk/browser';
import { queryOptions } from '@tanstack/react-query';

/** Everything under this key is refetched after an alert changes (the list and the tab's unread badge). */
export const alertsKey = (userId: string) => ['alerts', userId] as const;

/** How often an open widget looks for new alerts; react-query pauses it while the page is hidden. */
export const ALERTS_POLL_MS = 60_000;

/** The inbox, newest first. Always refetched when shown, and polled while shown: the bureau may send an alert any time. */
export const alertsQuery = (api: CreditClient, userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'list'] as const,
    queryFn: async ({ signal }) =>
      (await api.call('listAlerts', { params: { userId }, query: { status: 'all', sort: '-createdAt', limit: 100 }, signal }))
        .data,
    staleTime: 0,
    refetchInterval: ALERTS_POLL_MS,
  });

/** How many alerts are unread, from the list total (one item fetched). */
export const unreadAlertCountQuery = (api: CreditClient, userId: string) =>
  queryOptions({
    queryKey: [...alertsKey(userId), 'unread-count'] as const,
    queryFn: async ({ signal }) =>
      (await api.call('listAlerts', { params: { userId }, query: { status: 'unread', limit: 1 }, signal })).pagination.total,
    staleTime: 0,
    refetchInterval: ALERTS_POLL_MS,
  });

export const markAlertRead = (api: CreditClient, userId: string, alertId: string): Promise<TAlert> =>
  api.call('updateAlert', { params: { userId, alertId }, body: { status: 'read' } });
