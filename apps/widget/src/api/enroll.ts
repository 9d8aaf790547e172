import type { TEnrolledUser, TSelfEnrollmentInput } from '@credit/contract';
import { type ApiClient, newIdempotencyKey } from './client.ts';

/** Enrols the token's own user; names and e-mail come from the token, so only identity fields are sent. */
export const enrollSelf = async (api: ApiClient, input: TSelfEnrollmentInput): Promise<TEnrolledUser> =>
  (await api.request<TEnrolledUser>('POST', '/v1/users/enroll', { body: input, idempotencyKey: newIdempotencyKey() })).data;
