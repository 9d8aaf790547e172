import type { ErrorCode, OAuthErrorCode } from '@credit/contract';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** Every error the client throws extends this one. */
export class CreditError extends Error {
  override name = 'CreditError';
}

/** A validation message that does not name its first field gets it in front, so the exception alone says what to fix. */
const messageNamingField = (message: string, details: ErrorDetail[] | undefined): string => {
  const first = details?.[0];
  return first && !message.includes(first.field) ? `${first.field}: ${first.message} (${message})` : message;
};

/**
 * The API answered with its error envelope. `code` is the discriminant (see the contract's `ERROR_CODES` for
 * when each is thrown); narrow with `isCreditApiError(error, 'NOT_FOUND')`.
 */
export class CreditApiError<Code extends ErrorCode = ErrorCode> extends CreditError {
  override name = 'CreditApiError';
  // Declared, not defined: the constructor sets each one, and a bundle for older browsers would otherwise
  // define every field a second time (the widget ships this class in its first load).
  declare readonly code: Code;
  declare readonly status: number;
  /** Quote it to support: it names this request in our logs. */
  declare readonly requestId: string | undefined;
  /** On `VALIDATION_ERROR`: one entry per offending field. */
  declare readonly details: ErrorDetail[];
  /** On `RATE_LIMIT_EXCEEDED`: seconds to wait. */
  declare readonly retryAfter: number | undefined;
  /** On `VERIFICATION_LOCKED`: when verification opens again. */
  declare readonly unlocksAt: string | undefined;
  /** Where the API reference explains `code` and what to do about it. */
  declare readonly docUrl: string | undefined;
  declare readonly operationId: string;

  constructor(fields: {
    code: Code;
    message: string;
    status: number;
    requestId?: string;
    details?: ErrorDetail[];
    retryAfter?: number;
    unlocksAt?: string;
    docUrl?: string;
    operationId: string;
  }) {
    super(messageNamingField(fields.message, fields.details));
    this.code = fields.code;
    this.status = fields.status;
    this.requestId = fields.requestId;
    this.details = fields.details ?? [];
    this.retryAfter = fields.retryAfter;
    this.unlocksAt = fields.unlocksAt;
    this.docUrl = fields.docUrl;
    this.operationId = fields.operationId;
  }
}

/** The token endpoint refused the client credentials (RFC 6749 §5.2 error). */
export class CreditOAuthError extends CreditError {
  override name = 'CreditOAuthError';
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    readonly status: number,
    /** The answer's `error_uri`: the page of /docs/errors that explains `code` and what to do. */
    readonly errorUri?: string,
  ) {
    super(message);
  }
}

/** The API could not be reached (DNS, refused connection, reset), after any retries that were safe. */
export class CreditConnectionError extends CreditError {
  override name = 'CreditConnectionError';
  constructor(
    message: string,
    readonly operationId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A response that is neither the documented success nor the API's error envelope (a proxy's HTML page, say). */
export class CreditUnexpectedResponseError extends CreditError {
  override name = 'CreditUnexpectedResponseError';
  constructor(
    message: string,
    readonly status: number,
    readonly operationId: string,
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** A success body that does not match the contract's schema (only with `validateResponses`). */
export class CreditResponseValidationError extends CreditError {
  override name = 'CreditResponseValidationError';
  constructor(
    message: string,
    readonly operationId: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** Narrows to an API error, and to one code when given: `if (isCreditApiError(e, 'USER_EXISTS')) …`. */
export const isCreditApiError = <Code extends ErrorCode = ErrorCode>(
  error: unknown,
  code?: Code,
): error is CreditApiError<Code> => error instanceof CreditApiError && (code === undefined || error.code === code);
