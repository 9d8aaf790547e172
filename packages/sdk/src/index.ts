/**
 * The partner-side SDK: a typed client derived from the contract, token caching and webhook
 * signature verification. So far: the shared types and `verifyWebhook`; the typed client comes later.
 */
export type {
  ErrorCode,
  TEnrolledUser,
  TEnrollmentInput,
  TEventEnvelope,
  TTokenResponse,
  TUser,
  TUserTokenResponse,
} from '@credit/contract';
export { type VerifyWebhookOptions, verifyWebhook, WebhookVerificationError } from './verify-webhook.ts';
