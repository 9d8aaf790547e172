import type { TCreditScore, TScoreHistoryEntry } from '@credit/contract';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client.ts';

const userPath = (userId: string) => `/v1/users/${encodeURIComponent(userId)}`;

/** The score, its factors and its history: everything a score refresh or a verification changes. */
export const creditKey = (userId: string) => ['credit-score', userId] as const;

/** The current score with its factors and trend; the dashboard header reads it too, so both share one request. */
export const creditScoreQuery = (api: ApiClient, userId: string) =>
  queryOptions({
    queryKey: creditKey(userId),
    queryFn: async ({ signal }) => (await api.request<TCreditScore>('GET', `${userPath(userId)}/credit-score`, { signal })).data,
  });

export const HISTORY_RANGES = [6, 12, 24] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** Monthly scores over the last `months` months, most recent first (as the API sends them). */
export const scoreHistoryQuery = (api: ApiClient, userId: string, months: HistoryRange) =>
  queryOptions({
    queryKey: [...creditKey(userId), 'history', months] as const,
    queryFn: async ({ signal }) =>
      (
        await api.request<TScoreHistoryEntry[]>('GET', `${userPath(userId)}/credit-score/history?months=${months}&limit=100`, {
          signal,
        })
      ).data,
    // Switching range keeps the previous line on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });
