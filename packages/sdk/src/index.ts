/**
 * `@credit/sdk`: the Credit API client, derived from the contract's operations. Works in Node 20+ and
 * browsers. Webhook verification (Node only) is in `@credit/sdk/webhooks`.
 */
export type {
  ErrorCode,
  OAuthErrorCode,
  TEventEnvelope,
  TEventType,
  TUserTokenRequest,
  TUserTokenResponse,
} from '@credit/contract';
export { ClientCredentialsAuth, DEFAULT_RENEWAL_MARGIN_MS, tokenRenewAt } from './access-token.ts';
export { bearerAuth, type CreditAuth } from './auth.ts';
export {
  type ClientCredentialsOptions,
  CreditClient,
  type CreditClientOptions,
  type CustomAuthOptions,
  type MintUserTokenInput,
} from './client.ts';
export {
  CreditApiError,
  CreditConnectionError,
  CreditError,
  CreditOAuthError,
  CreditResponseValidationError,
  CreditUnexpectedResponseError,
  type ErrorDetail,
  isCreditApiError,
} from './errors.ts';
export { newIdempotencyKey } from './idempotency-key.ts';
export type {
  CallArgs,
  CallOptions,
  CallResult,
  ListItem,
  ListOperationId,
  OperationId,
  OperationMap,
  Page,
  PaginationInfo,
  ResponseBody,
  ResponseMeta,
  UserTokenOperationId,
} from './operations.ts';
export { AutoPaginator } from './pagination.ts';
export { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy, retryDelay } from './retry.ts';
export type { ApiResponse } from './send.ts';
