import type { ErrorCode } from '@credit/contract';
import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import type { Clock } from '../lib/clock.ts';
import { publicBaseUrl } from '../lib/public-url.ts';
import type { HttpRequest } from './api-request.ts';
import { responseMeta } from './envelope.ts';
import { malformedPathError } from './malformed-path.ts';
import { requestLogger } from './request-logger.ts';

export interface PreparedResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

// body-parser error types that mean "your request is malformed", with what to tell the caller.
const BODY_ERRORS: Record<string, string> = {
  'entity.parse.failed': 'The body is not valid JSON.',
  'entity.too.large': 'The body is larger than the 1 MB limit.',
  'encoding.unsupported': 'The body’s character encoding is not supported; send UTF-8.',
  'charset.unsupported': 'The body’s charset is not supported; send UTF-8.',
  'request.aborted': 'The request body was not received completely.',
  'request.size.invalid': 'The request body does not match its Content-Length.',
  'parameters.too.many': 'The body has too many parameters.',
};

const DATABASE_GONE = /PGlite is closed|Cannot use a pool after calling end|Connection terminated/;
const CONNECTION_FAILURES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08006', '08001']);

/** Maps anything thrown to the one error shape. Unknown failures become a 500 that names only the requestId. */
export const toApiError = (error: unknown, logger: Logger): ApiError => {
  if (error instanceof ApiError) return error;
  const e = error as { type?: string; code?: string; status?: number } | null;
  if (e?.type && BODY_ERRORS[e.type]) {
    return new ApiError('VALIDATION_ERROR', BODY_ERRORS[e.type] as string, [
      { field: 'body', message: BODY_ERRORS[e.type] as string },
    ]);
  }
  if ((e?.code && CONNECTION_FAILURES.has(e.code)) || DATABASE_GONE.test((error as Error)?.message ?? '')) {
    logger.error({ err: error }, 'dependency unavailable');
    return new ApiError('SERVICE_UNAVAILABLE', 'A dependency is temporarily unavailable; retry shortly.');
  }
  logger.error({ err: error }, 'unhandled error');
  return new ApiError('INTERNAL_ERROR', 'Something went wrong on our side. Quote the requestId when you contact support.');
};

/** Where the reference explains an error code and what to do about it: its anchor on `/docs/errors`. */
export const errorDocUrl = (baseUrl: string, code: string): string => `${baseUrl}/docs/errors#${code}`;

export const errorResponse = (error: ApiError, requestId: string, clock: Clock, baseUrl: string): PreparedResponse => {
  const body: { error: Record<string, unknown>; meta: ReturnType<typeof responseMeta> } = {
    error: { code: error.code satisfies ErrorCode, message: error.message, docUrl: errorDocUrl(baseUrl, error.code) },
    meta: responseMeta(requestId, clock),
  };
  if (error.details?.length) body.error.details = error.details;
  if (error.extra) Object.assign(body.error, error.extra);
  const headers: Record<string, string> = {};
  const retryAfter = error.extra?.retryAfter ?? error.hints?.retryAfterSeconds;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(retryAfter);
  // Every 401 of the API names its scheme (RFC 6750 §3), whoever raised it; `invalid_token` only when a token (or a
  // widget session) was presented and refused.
  if (error.status === 401) {
    headers['WWW-Authenticate'] = error.hints?.credentialsRefused ? 'Bearer error="invalid_token"' : 'Bearer';
  }
  return { status: error.status, body, headers: Object.keys(headers).length ? headers : undefined };
};

/**
 * The one way anything thrown becomes an answer: the app's error handler sends it, and an operation's handler
 * prepares it (so an idempotent request can store it for replay). With `operation`, a code the operation does not
 * document is logged: the contract and the handler disagree.
 */
export const errorAnswer = (
  ctx: AppContext,
  req: HttpRequest,
  error: unknown,
  operation?: { operationId: string; documented: ReadonlySet<string> },
): PreparedResponse => {
  const apiError = malformedPathError(error) ?? toApiError(error, requestLogger(ctx, req));
  if (operation && !operation.documented.has(apiError.code)) {
    requestLogger(ctx, req).error(
      { code: apiError.code, operationId: operation.operationId },
      'error code not documented for this operation',
    );
  }
  return errorResponse(apiError, req.requestId ?? 'req_unknown', ctx.clock, publicBaseUrl(ctx.config));
};
