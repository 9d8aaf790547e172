import type { TVerificationAnswersInput, TVerificationResult, TVerificationSession } from '@credit/contract';
import type { ApiClient } from './client.ts';

export interface StartedVerification {
  session: TVerificationSession;
  /** When, on this device's clock, the session expires: the server's remaining time, so a skewed clock does not matter. */
  deadline: number;
}

/**
 * Starts a new verification session. Each call creates a session on the server, so this is called
 * on purpose (start, start again), never by a query refetch.
 */
export const startVerification = async (api: ApiClient, userId: string): Promise<StartedVerification> => {
  const sent = Date.now();
  const { data, meta } = await api.request<TVerificationSession>(
    'GET',
    `/v1/users/${encodeURIComponent(userId)}/verification/questions`,
  );
  const serverNow = meta?.timestamp ? Date.parse(meta.timestamp) : Number.NaN;
  const remaining = Date.parse(data.expiresAt) - (Number.isFinite(serverNow) ? serverNow : sent);
  return { session: data, deadline: sent + remaining };
};

export const submitVerification = async (
  api: ApiClient,
  userId: string,
  input: TVerificationAnswersInput,
): Promise<TVerificationResult> =>
  (
    await api.request<TVerificationResult>('POST', `/v1/users/${encodeURIComponent(userId)}/verification/answers`, {
      body: input,
    })
  ).data;
