export { ErrorScreen, type ErrorScreenProps } from './ErrorScreen.tsx';
export { isRetryable, requestIdOf, unlocksAtOf, widgetErrorCode } from './error-code.ts';
