import type { CreditClient } from '@credit/sdk';

/**
 * Sandbox only: passes identity verification with the sandbox's answer key, as a test suite would. In production the
 * customer answers the questions in the widget (or in your own UI, with the same two calls).
 */
export async function verifyInSandbox(credit: CreditClient, userId: string): Promise<boolean> {
  const session = await credit.call('getVerificationQuestions', { params: { userId } });
  const key = await credit.call('sandboxGetVerificationAnswers', {
    params: { userId },
    query: { sessionId: session.sessionId },
  });
  const result = await credit.call('submitVerificationAnswers', {
    params: { userId },
    body: { sessionId: session.sessionId, answers: key.answers },
  });
  return result.verified;
}
