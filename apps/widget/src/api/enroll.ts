import type { TEnrolledUser, TSelfEnrollmentInput } from '@credit/contract';
import { apiRequest, newIdempotencyKey } from './client.ts';

/** Enrols the token's own user; names and e-mail come from the token, so only identity fields are sent. */
export const enrollSelf = async (input: TSelfEnrollmentInput): Promise<TEnrolledUser> =>
  (await apiRequest<TEnrolledUser>('POST', '/v1/users/enroll', { body: input, idempotencyKey: newIdempotencyKey() })).data;
