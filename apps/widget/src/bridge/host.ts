import {
  type FrameToHostMessage,
  type FrameToHostPayloads,
  type HostToFrameMessage,
  type HostToFramePayloads,
  WIDGET_MESSAGE_SOURCE,
  WIDGET_PROTOCOL_VERSION,
  type WidgetEvent,
  type WidgetView,
} from '@credit/contract/widget-protocol';
import { forgetLaunchToken, isWidgetView, type LaunchContext, type LaunchSettings, sanitizeTheme } from './launch.ts';

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
export type BridgeWindow = Window & NativeBridges;

/** What the host handed over to start with: its token (null when it sent none) and settings. */
export interface HostConnection {
  userToken: string | null;
  settings: LaunchSettings;
}

/** A host's answer to `token_request`: a fresh token, or null when it has none. */
type TokenListener = (token: string | null) => void;

export const TOKEN_WAIT_MS = 20_000;

export interface HostBridgeEnvironment {
  /** The frame's own window: its `message` events and its native bridges. */
  window: BridgeWindow;
  /** The embedding page's window: the only `event.source` accepted, and where messages go. */
  parent: { postMessage(message: unknown, targetOrigin: string): void };
}

/**
 * The frame's end of the conversation with whoever opened it: the `/embed.js` loader by postMessage, or a
 * mobile app through its native bridge. Accepts a message only from the page the server allowed to frame us
 * (`event.origin` = the launch's parent origin, `event.source` = the parent window) that names this frame.
 */
export class HostBridge {
  private readonly tokenListeners = new Set<TokenListener>();
  private readonly viewListeners = new Set<(view: WidgetView) => void>();
  private readonly refreshListeners = new Set<() => void>();
  private connection: Promise<HostConnection> | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    readonly launch: LaunchContext,
    private readonly env: HostBridgeEnvironment = { window, parent: window.parent },
  ) {}

  /**
   * Starts listening (the loader waits for `frame_loaded`) and resolves with the host's token and settings:
   * the loader's `init` message when embedded, the URL fragment in a webview. Safe to call more than once.
   */
  connect(): Promise<HostConnection> {
    this.connection ??= this.open();
    return this.connection;
  }

  /** Cookie mode: nothing in the frame may still hold the user token once the cookie carries the session. */
  forgetToken(settings: LaunchSettings): void {
    this.connection = Promise.resolve({ userToken: null, settings });
    forgetLaunchToken(this.launch);
  }

  /** Hands a public event to the host: the loader's onEvent, or the mobile app's bridge. */
  sendEvent(event: WidgetEvent): void {
    if (this.launch.mode === 'embedded') this.postToParent('event', event);
    else if (this.launch.mode === 'webview') this.postToNative(event);
  }

  sendResize(height: number): void {
    if (this.launch.mode === 'embedded') this.postToParent('resize', { height });
  }

  /** Asks the host for a fresh user token; null when it has none or does not answer within `waitMs`. */
  requestFreshToken(waitMs = TOKEN_WAIT_MS): Promise<string | null> {
    const { mode } = this.launch;
    if (mode !== 'embedded' && mode !== 'webview') return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (token: string | null) => {
        clearTimeout(timer);
        this.tokenListeners.delete(done);
        resolve(token);
      };
      const timer = setTimeout(() => done(null), waitMs);
      this.tokenListeners.add(done);
      if (mode === 'embedded') this.postToParent('token_request', {});
      else this.postToNative({ type: 'token_request' });
    });
  }

  /** The host opened a dashboard view (`set_view`, or `creditWidget.setView` in a webview). */
  onView(listener: (view: WidgetView) => void): () => void {
    this.viewListeners.add(listener);
    return () => this.viewListeners.delete(listener);
  }

  /** The host asked for fresh data (`refresh` message, or `creditWidget.refresh()` in a webview). */
  onRefresh(listener: () => void): () => void {
    this.refreshListeners.add(listener);
    return () => this.refreshListeners.delete(listener);
  }

  /** Stops listening to the host. */
  close(): void {
    this.stopListening?.();
    this.stopListening = null;
  }

  private open(): Promise<HostConnection> {
    const { launch } = this;
    if (launch.mode === 'webview') {
      this.env.window.creditWidget = {
        setUserToken: (token: string) => this.deliverToken(typeof token === 'string' && token ? token : null),
        setView: (view: string) => {
          if (isWidgetView(view)) this.notifyView(view);
        },
        tokenUnavailable: () => this.deliverToken(null),
        refresh: () => this.notifyRefresh(),
      };
      return Promise.resolve({ userToken: launch.fragmentToken, settings: launch.fragmentSettings });
    }
    if (launch.mode !== 'embedded') return Promise.resolve({ userToken: null, settings: {} });

    return new Promise((resolve) => {
      let initialised = false;
      const listener = (event: MessageEvent) => {
        const message = this.acceptedMessage(event);
        if (!message) return;
        switch (message.type) {
          case 'init': {
            if (initialised) return;
            initialised = true;
            resolve(initFromHost(message.payload));
            return;
          }
          case 'token':
            if (typeof message.payload.userToken === 'string' && message.payload.userToken) {
              this.deliverToken(message.payload.userToken);
            }
            return;
          case 'token_unavailable':
            this.deliverToken(null);
            return;
          case 'set_view':
            if (isWidgetView(message.payload.view)) this.notifyView(message.payload.view);
            return;
          case 'refresh':
            this.notifyRefresh();
            return;
        }
      };
      this.env.window.addEventListener('message', listener);
      this.stopListening = () => this.env.window.removeEventListener('message', listener);
      this.postToParent('frame_loaded', {});
    });
  }

  /** Only the page that embeds us, at the origin the server allowed to frame us, may talk to the frame. */
  private acceptedMessage(event: MessageEvent): HostToFrameMessage | null {
    if (event.origin !== this.launch.parentOrigin || event.source !== this.env.parent) return null;
    const data: unknown = event.data;
    if (!data || typeof data !== 'object') return null;
    const message = data as Partial<HostToFrameMessage>;
    const valid =
      message.source === WIDGET_MESSAGE_SOURCE &&
      message.version === WIDGET_PROTOCOL_VERSION &&
      message.frameId === this.launch.frameId &&
      typeof message.type === 'string' &&
      typeof message.payload === 'object' &&
      message.payload !== null;
    return valid ? (message as HostToFrameMessage) : null;
  }

  private postToParent<K extends keyof FrameToHostPayloads>(type: K, payload: FrameToHostPayloads[K]): void {
    const { parentOrigin, frameId } = this.launch;
    if (!parentOrigin) return;
    const message = { source: WIDGET_MESSAGE_SOURCE, version: WIDGET_PROTOCOL_VERSION, frameId, type, payload };
    this.env.parent.postMessage(message as FrameToHostMessage, parentOrigin);
  }

  /** Sends to the mobile app through the first bridge that exists. */
  private postToNative(message: WidgetEvent | { type: 'token_request' }): void {
    const w = this.env.window;
    if (w.ReactNativeWebView) {
      w.ReactNativeWebView.postMessage(JSON.stringify(message));
    } else if (w.webkit?.messageHandlers?.creditWidget) {
      w.webkit.messageHandlers.creditWidget.postMessage(message);
    } else if (this.launch.parentOrigin && this.env.parent !== w) {
      // Framed without a native bridge: only to the origin the server allowed to frame us, never '*' or the referrer.
      this.env.parent.postMessage(message, this.launch.parentOrigin);
    }
  }

  private deliverToken(token: string | null): void {
    for (const listener of [...this.tokenListeners]) listener(token);
  }

  private notifyView(view: WidgetView): void {
    for (const listener of this.viewListeners) listener(view);
  }

  private notifyRefresh(): void {
    for (const listener of this.refreshListeners) listener();
  }
}

/** The loader's `init`, with every field checked: a host page is not trusted to send the declared types. */
const initFromHost = ({ userToken, view, theme, locale }: HostToFramePayloads['init']): HostConnection => {
  const settings: LaunchSettings = {};
  if (isWidgetView(view)) settings.view = view;
  if (locale === 'en' || locale === 'es') settings.locale = locale;
  const safeTheme = sanitizeTheme(theme);
  if (safeTheme) settings.theme = safeTheme;
  return { userToken: typeof userToken === 'string' && userToken ? userToken : null, settings };
};
