export { ErrorScreen, type ErrorScreenProps } from './ErrorScreen.tsx';
export { isRetryable, requestIdOf, statusOf, unlocksAtOf, widgetErrorCode } from './error-code.ts';
export { WidgetError } from './widget-error.ts';
