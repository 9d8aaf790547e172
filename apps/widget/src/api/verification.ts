import type { TVerificationAnswersInput, TVerificationResult, TVerificationSession } from '@credit/contract';
import type { CreditClient } from '@credit/sdk/browser';

export interface StartedVerification {
  session: TVerificationSession;
  /** When, on this device's clock, the session expires: the server's remaining time, so a skewed clock does not matter. */
  deadline: number;
}

/**
 * Starts a new verification session. Each call creates a session on the server, so this is called
 * on purpose (start, start again), never by a query refetch.
 */
export const startVerification = async (api: CreditClient, userId: string): Promise<StartedVerification> => {
  const sent = Date.now();
  const { data, meta } = (await api.request('getVerificationQuestions', { params: { userId } })).body;
  const serverNow = Date.parse(meta.timestamp);
  const remaining = Date.parse(data.expiresAt) - (Number.isFinite(serverNow) ? serverNow : sent);
  return { session: data, deadline: sent + remaining };
};

export const submitVerification = (
  api: CreditClient,
  userId: string,
  input: TVerificationAnswersInput,
): Promise<TVerificationResult> => api.call('submitVerificationAnswers', { params: { userId }, body: input });
