import { ERROR_CODES, type ErrorCode } from '@credit/contract';

export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * What a failure says besides its body, as facts rather than headers: whoever answers it (http/error-response.ts)
 * decides how they travel.
 */
export interface ApiErrorHints {
  /** Seconds after which trying again may succeed, when the body does not say it (`extra.retryAfter` does). */
  retryAfterSeconds?: number;
  /** An authentication failure of credentials that were presented (unknown, expired, revoked), not missing ones. */
  credentialsRefused?: boolean;
}

/** The one way to fail a request. The error handler turns it into status + `{error, meta}`. */
export class ApiError extends Error {
  /** The status of `code` in the contract (ERROR_CODES). */
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields of `error` such as `retryAfter` or `unlocksAt`. */
    readonly extra?: Record<string, unknown>,
    readonly hints?: ApiErrorHints,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);
/** The message names the first broken field and its rule, so a log line or an exception says what to fix. */
export const validationError = (details: ErrorDetail[], message = validationMessage(details)) =>
  new ApiError('VALIDATION_ERROR', message, details);

const validationMessage = (details: ErrorDetail[]): string => {
  const [first] = details;
  if (!first) return 'The request is invalid.';
  const others = details.length - 1;
  const more = others === 0 ? '' : ` (and ${others} more ${others === 1 ? 'field' : 'fields'}: see details)`;
  return `${first.field}: ${first.message.replace(/\.$/, '')}${more}.`;
};
