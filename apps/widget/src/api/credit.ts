import type { TCreditReport, TSimulation, TSimulationAction } from '@credit/contract';
import type { CreditClient } from '@credit/sdk/browser';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

/** The score, its factors and its history: everything a score refresh or a verification changes. */
export const creditKey = (userId: string) => ['credit-score', userId] as const;

/** The current score with its factors and trend; the dashboard header reads it too, so both share one request. */
export const creditScoreQuery = (api: CreditClient, userId: string) =>
  queryOptions({
    queryKey: creditKey(userId),
    queryFn: ({ signal }) => api.call('getCreditScore', { params: { userId }, signal }),
  });

export const HISTORY_RANGES = [6, 12, 24] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** Monthly scores over the last `months` months, most recent first (as the API sends them). */
export const scoreHistoryQuery = (api: CreditClient, userId: string, months: HistoryRange) =>
  queryOptions({
    queryKey: [...creditKey(userId), 'history', months] as const,
    queryFn: async ({ signal }) =>
      (await api.call('listCreditScoreHistory', { params: { userId }, query: { months, limit: 100 }, signal })).data,
    // Switching range keeps the previous line on screen instead of flashing a skeleton.
    placeholderData: keepPreviousData,
  });

/** Pulls the file from the bureau now (at most once a day): the new score with `previousScore` and `refreshAvailableAt`. */
export const refreshCreditScore = (api: CreditClient, userId: string) => api.call('refreshCreditScore', { params: { userId } });

/**
 * The report behind the score, from the file on record (reading it never pulls). Under the score's key, so a
 * refresh refetches it with the factors and history. The Report and What-if tabs and the offers' savings share it.
 */
export const creditReportQuery = (api: CreditClient, userId: string) =>
  queryOptions({
    queryKey: [...creditKey(userId), 'report'] as const,
    queryFn: ({ signal }): Promise<TCreditReport> => api.call('getCreditReport', { params: { userId }, signal }),
  });

/** The estimated score after `actions`; the API stores nothing and pulls nothing, so it is safe to run again. */
export const simulateCreditScore = (api: CreditClient, userId: string, actions: TSimulationAction[]): Promise<TSimulation> =>
  api.call('simulateCreditScore', { params: { userId }, body: { actions } });
