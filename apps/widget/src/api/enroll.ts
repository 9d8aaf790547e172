import type { TEnrolledUser, TSelfEnrollmentInput } from '@credit/contract';
import type { CreditClient } from '@credit/sdk/browser';

/**
 * Enrols the token's own user; names and e-mail come from the token, so only identity fields are sent. The
 * SDK gives each submit its own `Idempotency-Key`.
 */
export const enrollSelf = (api: CreditClient, input: TSelfEnrollmentInput): Promise<TEnrolledUser> =>
  api.call('enrollUser', { body: input });
