import { WIDGET_ERROR_CODES, type WidgetErrorCode } from '@credit/contract/widget-protocol';
import { WidgetApiError } from '../api/errors.ts';

/** The widget's own code for anything thrown: what the error screen shows and the `error` event carries. */
export const widgetErrorCode = (error: unknown): WidgetErrorCode => {
  if (!(error instanceof WidgetApiError)) return 'UNKNOWN';
  if ((WIDGET_ERROR_CODES as readonly string[]).includes(error.code)) return error.code as WidgetErrorCode;
  if (error.code === 'AUTHENTICATION_ERROR') return 'INVALID_TOKEN';
  if (error.code === 'INTERNAL_ERROR' && error.status >= 500) return 'UNKNOWN';
  return 'UNKNOWN';
};

export const requestIdOf = (error: unknown): string | undefined =>
  error instanceof WidgetApiError ? error.requestId : undefined;
export const unlocksAtOf = (error: unknown): string | undefined =>
  error instanceof WidgetApiError ? error.unlocksAt : undefined;

/** Failures that may pass on their own: the screen offers "Try again". */
export const isRetryable = (error: unknown): boolean => {
  const code = widgetErrorCode(error);
  if (code === 'NETWORK_ERROR' || code === 'SERVICE_UNAVAILABLE') return true;
  return error instanceof WidgetApiError && (error.code === 'RATE_LIMIT_EXCEEDED' || error.status >= 500);
};
