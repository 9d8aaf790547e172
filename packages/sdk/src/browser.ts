/**
 * `@credit/sdk/browser`: the Credit API client for pages and apps, without zod. The same typed `call`,
 * `request` and `list` as the server entry, for the operations a user token may call, sent from a route
 * table generated from the contract at build time (src/routes.generated.ts); success bodies are not
 * validated (the server entry does that). Credentials come from a `CreditAuth`: `bearerAuth` for a user
 * token, or your own (the widget's cookie session).
 */
export type { ErrorCode, TEventEnvelope, TEventType } from '@credit/contract';
export { bearerAuth, type CreditAuth } from './auth.ts';
export type { CommonOptions, CustomAuthOptions as CreditClientOptions } from './base-client.ts';
export { CreditClient } from './browser-client.ts';
export {
  CreditApiError,
  CreditConnectionError,
  CreditError,
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
  Page,
  PaginationInfo,
  ResponseBody,
  ResponseMeta,
  UserTokenOperationId,
} from './operations.ts';
export type { ApiResponse } from './send.ts';
