/**
 * `@credit/react`: the Credit widget as a React component, over the `/embed.js` loader. Safe to import and
 * render on a server (Next.js); the frame is created in the browser only.
 */
export type {
  WidgetErrorCode,
  WidgetEvent,
  WidgetEventMap,
  WidgetEventName,
  WidgetLocale,
  WidgetTheme,
  WidgetView,
} from '@credit/contract/widget-protocol';
export { CreditWidget, type CreditWidgetProps, type CreditWidgetRef } from './CreditWidget.tsx';
export type { FetchUserToken } from './user-token.ts';
