import { WIDGET_ERROR_CODES, type WidgetErrorCode } from '@credit/contract/widget-protocol';
import { CreditApiError, CreditConnectionError, CreditUnexpectedResponseError, isCreditApiError } from '@credit/sdk/browser';
import { WidgetError } from './widget-error.ts';

/** The widget's own code for anything thrown: what the error screen shows and the `error` event carries. */
export const widgetErrorCode = (error: unknown): WidgetErrorCode => {
  if (error instanceof WidgetError) return error.code;
  if (error instanceof CreditConnectionError) return 'NETWORK_ERROR';
  // A 5xx without the API's body is a proxy or load balancer standing in for an API that is down.
  if (error instanceof CreditUnexpectedResponseError) return error.status >= 500 ? 'SERVICE_UNAVAILABLE' : 'UNKNOWN';
  if (!(error instanceof CreditApiError)) return 'UNKNOWN';
  if ((WIDGET_ERROR_CODES as readonly string[]).includes(error.code)) return error.code as WidgetErrorCode;
  if (error.code === 'AUTHENTICATION_ERROR') return 'INVALID_TOKEN';
  return 'UNKNOWN';
};

/** The HTTP status of an answer the API (or a proxy) gave; undefined when no answer came. */
export const statusOf = (error: unknown): number | undefined =>
  error instanceof CreditApiError || error instanceof CreditUnexpectedResponseError ? error.status : undefined;

export const requestIdOf = (error: unknown): string | undefined =>
  error instanceof WidgetError
    ? error.extra.requestId
    : error instanceof CreditApiError || error instanceof CreditUnexpectedResponseError
      ? error.requestId
      : undefined;

export const unlocksAtOf = (error: unknown): string | undefined =>
  error instanceof WidgetError ? error.extra.unlocksAt : error instanceof CreditApiError ? error.unlocksAt : undefined;

/** Failures that may pass on their own: the screen offers "Try again". */
export const isRetryable = (error: unknown): boolean => {
  const code = widgetErrorCode(error);
  if (code === 'NETWORK_ERROR' || code === 'SERVICE_UNAVAILABLE') return true;
  return isCreditApiError(error, 'RATE_LIMIT_EXCEEDED') || (statusOf(error) ?? 0) >= 500;
};
