import {
  type FrameToHostMessage,
  type FrameToHostPayloads,
  type HostToFrameMessage,
  WIDGET_MESSAGE_SOURCE,
  WIDGET_PROTOCOL_VERSION,
  type WidgetEvent,
  type WidgetView,
} from '@credit/contract/widget-protocol';
import { isWidgetView, type LaunchContext, type LaunchSettings, sanitizeTheme } from './launch.ts';

interface NativeBridges {
  ReactNativeWebView?: { postMessage(message: string): void };
  webkit?: { messageHandlers?: { creditWidget?: { postMessage(message: unknown): void } } };
  creditWidget?: {
    setUserToken(token: string): void;
    setView(view: string): void;
    tokenUnavailable(): void;
    refresh(): void;
  };
}
type BridgeWindow = Window & NativeBridges;

/** A host's answer to `token_request`: a fresh token, or null when it has none. */
type TokenListener = (token: string | null) => void;

let launch: LaunchContext | null = null;
const tokenListeners = new Set<TokenListener>();
const viewListeners = new Set<(view: WidgetView) => void>();
const refreshListeners = new Set<() => void>();

const notifyRefresh = () => {
  for (const listener of refreshListeners) listener();
};

const bridgeWindow = () => window as BridgeWindow;

const postToParent = <K extends keyof FrameToHostPayloads>(type: K, payload: FrameToHostPayloads[K]) => {
  if (!launch?.parentOrigin) return;
  const message = { source: WIDGET_MESSAGE_SOURCE, version: WIDGET_PROTOCOL_VERSION, frameId: launch.frameId, type, payload };
  window.parent.postMessage(message as FrameToHostMessage, launch.parentOrigin);
};

/** Sends to the mobile app through the first bridge that exists. */
const postToNative = (message: WidgetEvent | { type: 'token_request' }) => {
  const w = bridgeWindow();
  if (w.ReactNativeWebView) {
    w.ReactNativeWebView.postMessage(JSON.stringify(message));
  } else if (w.webkit?.messageHandlers?.creditWidget) {
    w.webkit.messageHandlers.creditWidget.postMessage(message);
  } else {
    // Framed without a native bridge: only to the origin the server allowed to frame us, never '*' or the referrer.
    if (launch?.parentOrigin && window.parent !== window) window.parent.postMessage(message, launch.parentOrigin);
  }
};

const deliverToken = (token: string | null) => {
  for (const listener of [...tokenListeners]) listener(token);
};

const isHostMessage = (data: unknown): data is HostToFrameMessage => {
  if (!data || typeof data !== 'object') return false;
  const message = data as Partial<HostToFrameMessage>;
  return (
    message.source === WIDGET_MESSAGE_SOURCE &&
    message.version === WIDGET_PROTOCOL_VERSION &&
    message.frameId === launch?.frameId &&
    typeof message.type === 'string' &&
    typeof message.payload === 'object' &&
    message.payload !== null
  );
};

/**
 * Connects to whoever opened the frame and resolves with the user token and settings:
 * the loader's `init` message when embedded, the URL fragment in a webview.
 */
export const connectToHost = (context: LaunchContext): Promise<{ userToken: string | null; settings: LaunchSettings }> => {
  launch = context;
  if (context.mode === 'webview') {
    bridgeWindow().creditWidget = {
      setUserToken: (token: string) => deliverToken(typeof token === 'string' && token ? token : null),
      setView: (view: string) => {
        if (isWidgetView(view)) for (const listener of viewListeners) listener(view);
      },
      tokenUnavailable: () => deliverToken(null),
      refresh: notifyRefresh,
    };
    return Promise.resolve({ userToken: context.fragmentToken, settings: context.fragmentSettings });
  }
  if (context.mode !== 'embedded') return Promise.resolve({ userToken: null, settings: {} });

  return new Promise((resolve) => {
    let initialised = false;
    window.addEventListener('message', (event: MessageEvent) => {
      // Only the page that embeds us, at the origin the server allowed to frame us, may talk to the frame.
      if (event.origin !== context.parentOrigin || event.source !== window.parent || !isHostMessage(event.data)) return;
      const message = event.data;
      switch (message.type) {
        case 'init': {
          if (initialised) return;
          initialised = true;
          const { userToken, view, theme, locale } = message.payload;
          const settings: LaunchSettings = {};
          if (isWidgetView(view)) settings.view = view;
          if (locale === 'en' || locale === 'es') settings.locale = locale;
          const safeTheme = sanitizeTheme(theme);
          if (safeTheme) settings.theme = safeTheme;
          resolve({ userToken: typeof userToken === 'string' && userToken ? userToken : null, settings });
          return;
        }
        case 'token':
          if (typeof message.payload.userToken === 'string' && message.payload.userToken) deliverToken(message.payload.userToken);
          return;
        case 'token_unavailable':
          deliverToken(null);
          return;
        case 'set_view':
          if (isWidgetView(message.payload.view)) for (const listener of viewListeners) listener(message.payload.view);
          return;
        case 'refresh':
          notifyRefresh();
          return;
      }
    });
    postToParent('frame_loaded', {});
  });
};

/** Hands a public event to the host: the loader's onEvent, or the mobile app's bridge. */
export const sendEvent = (event: WidgetEvent): void => {
  if (launch?.mode === 'embedded') postToParent('event', event);
  else if (launch?.mode === 'webview') postToNative(event);
};

export const sendResize = (height: number): void => {
  if (launch?.mode === 'embedded') postToParent('resize', { height });
};

export const TOKEN_WAIT_MS = 20_000;

/** Asks the host for a fresh user token; null when it has none or does not answer in time. */
export const requestFreshToken = (): Promise<string | null> => {
  if (launch?.mode !== 'embedded' && launch?.mode !== 'webview') return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (token: string | null) => {
      clearTimeout(timer);
      tokenListeners.delete(done);
      resolve(token);
    };
    const timer = setTimeout(() => done(null), TOKEN_WAIT_MS);
    tokenListeners.add(done);
    if (launch?.mode === 'embedded') postToParent('token_request', {});
    else postToNative({ type: 'token_request' });
  });
};

/** The host opened a dashboard view (`set_view`, or `creditWidget.setView` in a webview). */
export const onHostView = (listener: (view: WidgetView) => void): (() => void) => {
  viewListeners.add(listener);
  return () => viewListeners.delete(listener);
};

/** The host asked for fresh data (`refresh` message, or `creditWidget.refresh()` in a webview). */
export const onHostRefresh = (listener: () => void): (() => void) => {
  refreshListeners.add(listener);
  return () => refreshListeners.delete(listener);
};
