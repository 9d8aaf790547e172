import { ERROR_CODES, type ErrorCode } from '@credit/contract';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The one way to fail a request. The error handler turns it into status + `{error, meta}`. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields of `error` such as `retryAfter` or `unlocksAt`. */
    readonly extra?: Record<string, unknown>,
    /** Response headers the error travels with (`WWW-Authenticate`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);
export const validationError = (details: ErrorDetail[], message = 'The request is invalid; see details.') =>
  new ApiError('VALIDATION_ERROR', message, details);
