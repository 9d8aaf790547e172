/**
 * Public types of the `/embed.js` loader, for partners writing TypeScript. The loader itself is plain
 * JavaScript on `window.CreditWidget`; these types describe it.
 */
import type { WidgetEvent, WidgetLocale, WidgetTheme, WidgetView } from '@credit/contract/widget-protocol';

export type { WidgetErrorCode, WidgetEvent, WidgetEventMap, WidgetEventName } from '@credit/contract/widget-protocol';
export type { WidgetLocale, WidgetTheme, WidgetView };

export interface CreditWidgetOptions {
  /** The element to put the widget in, or a CSS selector for it. One widget per element. */
  container: HTMLElement | string;
  /** A `ut_…` user token your server minted with `POST /v1/auth/user-token`. */
  userToken: string;
  /** Dashboard screen to open once the user is verified. Default `score`. */
  view?: WidgetView;
  theme?: WidgetTheme;
  /** Default `en`. */
  locale?: WidgetLocale;
  /**
   * Every public event: ready, view_changed, enrolled, verified, consent_given, consent_withdrawn, score_loaded,
   * score_refreshed, offer_clicked, alert_read, error, exit. Score events carry only what the client's disclosure
   * setting allows (docs/partner/disclosure.md): the frame applies it, whatever this page does.
   */
  onEvent?: (event: WidgetEvent) => void;
  /** The customer pressed "Close" (also delivered to `onEvent` as `exit`). */
  onExit?: () => void;
  /**
   * Called when the token expired or was refused. Return (or resolve to) a fresh `ut_…` token from
   * your server; throw, or return nothing, when you cannot, and the widget shows its expired-session screen.
   */
  onTokenExpired?: () => Promise<string> | string;
  /** Where the widget is served. Default: the origin `embed.js` was loaded from. */
  baseUrl?: string;
  /** How long to wait for the frame to start before an `error` event `FRAME_REFUSED`. Default 15000. */
  readyTimeoutMs?: number;
  /**
   * Height in CSS px to reserve (as the container's `min-height` and the frame's height) until the widget shows
   * its first screen and sizes itself. Default by `view`: score 800, factors 1900, history 680, offers 2000,
   * alerts 480. Set it to what your layout shows first so the page does not shift; CSS `min-height` on the
   * container that is at least as tall is kept as it is.
   */
  initialHeight?: number;
}

export interface CreditWidgetHandle {
  /** Shows the frame (and its container) if hidden, switches to `view` if given, scrolls to it and focuses it. */
  open(view?: WidgetView): void;
  /** Switches the dashboard to `view`. */
  setView(view: WidgetView): void;
  /**
   * Makes the widget fetch everything it shows again (score, history, offers, alerts, the customer's status),
   * without a reload. Call it after your server changed something the widget shows, e.g. a score refresh or
   * a new alert. The widget also refetches by itself when the page becomes visible again, and checks for
   * new alerts every minute while visible.
   */
  refresh(): void;
  /** Removes the frame and stops listening. Safe to call twice; the handle does nothing afterwards. */
  destroy(): void;
  readonly iframe: HTMLIFrameElement;
}

export interface CreditWidgetApi {
  /** Creates the widget in `options.container`, first destroying any widget already in it. */
  create(options: CreditWidgetOptions): CreditWidgetHandle;
  /**
   * Starts every `[data-credit-widget]` element under `root` (default `document`) that has no widget yet, and
   * returns their handles. `get` finds the handle of a widget the loader started by itself.
   */
  scan(root?: ParentNode): CreditWidgetHandle[];
  /** The live widget in `container` (an element or a selector), e.g. to `refresh()` a declarative one. */
  get(container: HTMLElement | string): CreditWidgetHandle | undefined;
  readonly version: string;
}

/** The DOM event the container dispatches (bubbling) for each widget event. */
export const WIDGET_DOM_EVENT = 'credit-widget:event';

declare global {
  interface Window {
    CreditWidget?: CreditWidgetApi;
  }
  interface HTMLElementEventMap {
    'credit-widget:event': CustomEvent<WidgetEvent>;
  }
}
