import { ZMeta } from './common.ts';
import { z } from './zod.ts';

/**
 * Every error code the API can answer, the HTTP status it travels with, when it is thrown and what the caller should
 * do. The reference's error page (`/docs/errors`) is rendered from this table, and each response links there.
 * The server's one error handler and the SDK both read this table.
 */
export const ERROR_CODES = {
  VALIDATION_ERROR: {
    status: 400,
    when: 'The request is malformed: bad JSON, wrong content type, unknown or invalid fields. `details` names each field.',
    fix: "Fix the fields `details` names; the reference gives each field's rules. Do not retry unchanged.",
  },
  AUTHENTICATION_ERROR: {
    status: 401,
    when:
      'No token, an unknown, revoked or expired token, or a token from the other environment. The message says which, ' +
      'and whether it was an access token (`at_…`) or a user token (`ut_…`).',
    fix:
      'An access token (`at_…`) expired or was revoked: get a new one from `POST /oauth/token` with your client id and ' +
      'secret (the SDK renews it for you). A user token (`ut_…`) expired: your server mints a new one for that customer ' +
      'with `POST /v1/auth/user-token` (the widget asks your page for it through its `onTokenExpired` option). ' +
      'Unknown token: check that your credentials belong to this environment (`sbx` tokens for the sandbox, `live` for production).',
  },
  AUTHORIZATION_ERROR: {
    status: 403,
    when: 'The token lacks the scope for this route, a user token was used outside its own user, or the caller IP is not allow-listed.',
    fix: "Ask for the scope the operation lists, call it with an access token rather than a user token, or add your server's address to the client's IP allowlist.",
  },
  USER_NOT_ENROLLED: {
    status: 403,
    when: 'The user exists but has not finished enrolment or identity verification, or a user token has no enrolled user yet.',
    fix: 'Finish the missing step the message names: enrol (`POST /v1/users/enroll`) or pass identity verification (`GET …/verification/questions`).',
  },
  CREDIT_FROZEN: {
    status: 403,
    when: 'The user has a security freeze on their credit file.',
    fix: 'Tell the customer their file is frozen at the bureau; scores and offers return once they lift the freeze. Do not retry.',
  },
  VERIFICATION_LOCKED: {
    status: 403,
    when: 'Too many failed identity-verification sessions; `error.unlocksAt` says when it unlocks.',
    fix: 'Wait until `unlocksAt`; further attempts before then are refused.',
  },
  CONSENT_REQUIRED: {
    status: 403,
    when: 'The user has no current consent to pull their credit file: never given, withdrawn, expired, or given under terms that now require re-consent. No bureau pull happens without it.',
    fix: 'Ask the consumer to consent (the widget asks on its next visit), or record the consent they gave you with `POST /v1/users/{userId}/consent`; `GET …/consent` says what is missing.',
  },
  NOT_FOUND: {
    status: 404,
    when: 'No such route, or no such resource visible to this caller.',
    fix: "Check the path and the id: another client's users, and a user token's other users, look absent.",
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    when: 'The path names an operation, but not with this method. The `Allow` header lists the methods it takes.',
    fix: 'Call the path with one of the methods in `Allow`; the reference lists each operation with its method.',
  },
  USER_EXISTS: {
    status: 409,
    when: 'A live user with this externalUserId is already enrolled for this client.',
    fix: 'The customer is already enrolled: look them up with `GET /v1/users?externalUserId=…`.',
  },
  CLOCK_ADVANCING: {
    status: 409,
    when: 'Sandbox: the test clock (or the clock of the user this write is about) is advancing; only reads are served until it is `ready`.',
    fix: 'Wait for `sandbox.clock.ready` (or poll `GET /v1/sandbox/clocks/{clockId}` until `status` is `ready`), then retry.',
  },
  OFFER_STATE_CONFLICT: {
    status: 409,
    when:
      'The offer or the click is in a state that does not allow this: changing an archived offer, pausing a draft, ' +
      'or an outcome that goes back (`approved` after `funded`, anything after `declined`).',
    fix: 'Read the offer (`GET /v1/offers/{offerId}`) or the click (`GET /v1/offers/clicks/{clickId}`) for its state; outcomes move forward only.',
  },
  IDEMPOTENCY_CONFLICT: {
    status: 409,
    when: 'The Idempotency-Key was used with a different request, or its first request is still running.',
    fix: 'Use a new `Idempotency-Key` for a different request; for the same request, wait for the first to finish and retry.',
  },
  RATE_LIMIT_EXCEEDED: {
    status: 429,
    when: 'Too many requests in this window for this client; wait `retryAfter` seconds.',
    fix: 'Wait `retryAfter` seconds (also in `Retry-After`), then retry; spread batch work out. The SDK does this for you.',
  },
  INTERNAL_ERROR: {
    status: 500,
    when: 'An unexpected failure on our side. Quote the requestId to support.',
    fix: 'Retry later; if it persists, send us the `requestId`.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    when: 'A dependency (such as the credit bureau) is unavailable; retry later.',
    fix: 'Retry after `Retry-After` if present, with backoff; reads and idempotent writes are safe to retry.',
  },
} as const satisfies Record<string, { status: number; when: string; fix: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ZErrorCode = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).meta({ id: 'ErrorCode' });

export const ZErrorDetail = z
  .object({
    field: z.string().meta({ description: 'Dotted path of the offending field, e.g. `address.zipCode`.' }),
    message: z.string(),
  })
  .meta({ id: 'ErrorDetail' });

export const ZErrorBody = z
  .object({
    error: z.object({
      code: ZErrorCode,
      message: z.string(),
      // Optional in the schema so clients read answers of servers that predate it; this server always sends it.
      docUrl: z.url().optional().meta({
        description: 'Where the reference explains this code and what to do: its section of `/docs/errors`. Always sent.',
        example: 'https://api.example.com/docs/errors#VALIDATION_ERROR',
      }),
      details: z.array(ZErrorDetail).optional(),
      retryAfter: z.number().int().min(0).optional().meta({ description: 'Seconds to wait; on RATE_LIMIT_EXCEEDED only.' }),
      unlocksAt: z.string().optional().meta({ description: 'On VERIFICATION_LOCKED: when verification opens again.' }),
    }),
    meta: ZMeta,
  })
  .meta({ id: 'Error' });
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** RFC 6749 §5.2 error body, used by `POST /oauth/token` only. */
export const OAUTH_ERRORS = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
} as const;
export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;
export const ZOAuthError = z
  .object({
    error: z.enum(Object.keys(OAUTH_ERRORS) as [OAuthErrorCode, ...OAuthErrorCode[]]),
    error_description: z.string(),
    error_uri: z.url().optional().meta({ description: 'RFC 6749 §5.2: where `/docs/errors` explains this error. Always sent.' }),
  })
  .meta({ id: 'OAuthError' });
