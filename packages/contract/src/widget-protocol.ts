/**
 * The postMessage protocol between the partner's page (the `/embed.js` loader) and the widget frame,
 * and the events a mobile app receives through its native bridge. Types and constants only, no
 * imports: the loader must stay a few KB and must not pull zod in.
 *
 * Every message is `{ source: 'credit-widget', version: 1, frameId, type, payload }`. Both sides check
 * `event.origin` (the frame against the `parent` origin it was opened with, the loader against the
 * widget's origin) and `event.source`, and post with a pinned target origin, never `'*'`.
 */

export const WIDGET_MESSAGE_SOURCE = 'credit-widget';
export const WIDGET_PROTOCOL_VERSION = 1;

/** Screens of the dashboard a host may open directly (`view` option, `setView`). */
export const WIDGET_VIEWS = ['score', 'factors', 'report', 'simulator', 'history', 'offers', 'alerts'] as const;
export type WidgetView = (typeof WIDGET_VIEWS)[number];

export const WIDGET_LOCALES = ['en', 'es'] as const;
export type WidgetLocale = (typeof WIDGET_LOCALES)[number];

/** Theming, applied as CSS variables inside the frame. Colours are CSS colour strings. */
export interface WidgetTheme {
  /** Brand colour for buttons, links and the active tab. */
  brandColor?: string;
  /** Corner radius in px. */
  radius?: number;
  /** A font-family list; the frame loads no web fonts, so name fonts the device has. */
  fontFamily?: string;
  /** `auto` follows `prefers-color-scheme`. */
  colorScheme?: 'light' | 'dark' | 'auto';
}

/**
 * What the host page may learn about the score through the widget's events, per client (`pnpm clients update
 * <id> --widget-disclosure band`): `none` (the default) nothing about it, `band` its rating band, `exact` the
 * number too. The frame learns it from the server at the session exchange, never from the host page.
 */
export const WIDGET_DISCLOSURES = ['none', 'band', 'exact'] as const;
export type WidgetDisclosure = (typeof WIDGET_DISCLOSURES)[number];

/** VantageScore 3.0 bands, as the contract's `CREDIT_RATINGS` (repeated here: this file imports nothing). */
export type WidgetScoreBand = 'very_poor' | 'poor' | 'fair' | 'good' | 'excellent';

/**
 * What a score event says about the score: only what the client's disclosure setting allows. `band` and
 * `score` are absent (not null) when withheld, so a host cannot tell a withheld field from a missing one.
 */
export interface WidgetScoreDisclosure {
  userId: string;
  /** The client's setting, so the host knows why fields are absent. */
  disclosure: WidgetDisclosure;
  /** With `band` or `exact`. */
  band?: WidgetScoreBand;
  /** With `exact` only. */
  score?: number;
}

/** Why the widget could not go on; `error` events and error screens carry one. */
export const WIDGET_ERROR_CODES = [
  'FRAME_REFUSED', // the frame never said ready: origin not in the client's embed origins (CSP frame-ancestors) or unreachable
  'ORIGIN_NOT_ALLOWED', // the session exchange refused the parent origin
  'INVALID_TOKEN', // the user token was refused and no fresh one came from onTokenExpired
  'USER_NOT_ENROLLED',
  'VERIFICATION_LOCKED',
  'CREDIT_FROZEN',
  'CONSENT_REQUIRED', // no current consent: the widget asks for it (withdrawn, expired, or new terms)
  'SERVICE_UNAVAILABLE',
  'NETWORK_ERROR',
  'UNKNOWN',
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];

/**
 * What the frame shows: a dashboard view, or a step: `enroll`, `verify`, `consent` (asking for consent: monitoring
 * stopped, consent expired or new terms) or `withdraw` (the customer is about to withdraw consent).
 */
export type WidgetScreenName = WidgetView | 'enroll' | 'verify' | 'consent' | 'withdraw';

/** The public events a host receives through `onEvent` (and a native app through its bridge). */
export interface WidgetEventMap {
  /** The frame has its session and shows real content (the dashboard, the enrolment form or the KBA wizard). */
  ready: { view: WidgetScreenName };
  view_changed: { view: WidgetScreenName };
  enrolled: { userId: string };
  verified: { userId: string };
  offer_clicked: { userId: string; offerId: string; clickId: string; url: string };
  alert_read: { userId: string; alertId: string };
  /** The Score tab shows a score (first shown, or changed after a refresh): only what the disclosure setting allows. */
  score_loaded: WidgetScoreDisclosure;
  /** The customer pressed "Refresh score" and the bureau answered: only what the disclosure setting allows. */
  score_refreshed: WidgetScoreDisclosure;
  /** The customer agreed to the consent instruction (enrolment or re-consent). */
  consent_given: { userId: string; termsVersion: string };
  /** The customer withdrew consent in the widget: monitoring has stopped. */
  consent_withdrawn: { userId: string };
  error: { code: WidgetErrorCode; message: string; requestId?: string };
  /** The customer pressed "Close"; the host decides what that means (onExit is called too). */
  exit: Record<string, never>;
}
export type WidgetEventName = keyof WidgetEventMap;
export type WidgetEvent = { [K in WidgetEventName]: { name: K; data: WidgetEventMap[K] } }[WidgetEventName];

/** Frame → host. */
export interface FrameToHostPayloads {
  /** The frame's script runs and listens; the loader answers with `init`. */
  frame_loaded: Record<string, never>;
  /** Content height in CSS px, sent whenever it changes. */
  resize: { height: number };
  /** A public event to hand to `onEvent`. */
  event: WidgetEvent;
  /** The user token expired or was refused; the loader calls `onTokenExpired` and answers with `token`. */
  token_request: Record<string, never>;
}

/** Host → frame. */
export interface HostToFramePayloads {
  init: { userToken: string; view?: WidgetView; theme?: WidgetTheme; locale?: WidgetLocale };
  /** A fresh token, after `token_request` or whenever the host has one. */
  token: { userToken: string };
  set_view: { view: WidgetView };
  /** The host could not get a fresh token; the frame shows its expired-session screen. */
  token_unavailable: Record<string, never>;
  /**
   * Something changed outside the frame (the partner's server refreshed the score, an alert arrived):
   * the frame refetches everything it shows. Sent by the handle's `refresh()`.
   */
  refresh: Record<string, never>;
}

type Envelope<P, K extends keyof P> = {
  source: typeof WIDGET_MESSAGE_SOURCE;
  version: typeof WIDGET_PROTOCOL_VERSION;
  frameId: string;
  type: K;
  payload: P[K];
};
export type FrameToHostMessage = {
  [K in keyof FrameToHostPayloads]: Envelope<FrameToHostPayloads, K>;
}[keyof FrameToHostPayloads];
export type HostToFrameMessage = {
  [K in keyof HostToFramePayloads]: Envelope<HostToFramePayloads, K>;
}[keyof HostToFramePayloads];

/**
 * Query parameters of the frame URL `/widget?…`. Nothing secret goes here: the token travels by
 * postMessage (embedded) or in the URL fragment (`/widget#userToken=ut_…`, mobile webviews).
 */
export interface WidgetFrameQuery {
  /** The embedding page's origin; the server answers with `frame-ancestors` for it only if a client allows it. */
  parent?: string;
  /** Tells several widgets on one page apart. */
  frameId?: string;
}

/** Header that must accompany every cookie-authenticated request from the frame (CSRF defence). */
export const WIDGET_CSRF_HEADER = 'x-widget-csrf';
/** Prefix of the widget session cookies: each session's is `cw_session_<first 16 hex of its CSRF token>`. */
export const WIDGET_SESSION_COOKIE = 'cw_session';
