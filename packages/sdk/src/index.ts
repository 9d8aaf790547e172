/**
 * The partner-side SDK: a typed client derived from the contract, token caching and webhook
 * signature verification. Only the shared types exist so far; the client arrives with the webhooks issue.
 */
export type { ErrorCode, TEnrolledUser, TEnrollmentInput, TTokenResponse, TUser, TUserTokenResponse } from '@credit/contract';
