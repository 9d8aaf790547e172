import {
  WIDGET_LOCALES,
  WIDGET_VIEWS,
  type WidgetLocale,
  type WidgetTheme,
  type WidgetView,
} from '@credit/contract/widget-protocol';

/**
 * embedded: inside the partner's iframe, talking to `/embed.js` by postMessage.
 * webview: opened top-level by a mobile app with the token in the URL fragment.
 * standalone: neither (someone opened /widget by hand); nothing to show but an explanation.
 */
export type LaunchMode = 'embedded' | 'webview' | 'standalone';

export interface LaunchSettings {
  view?: WidgetView;
  theme?: WidgetTheme;
  locale?: WidgetLocale;
}

export interface LaunchContext {
  mode: LaunchMode;
  /** The embedding page's origin (the `parent` query), the only origin the frame talks to; null outside an iframe. */
  parentOrigin: string | null;
  frameId: string;
  /** Webview only: the token and settings from the fragment (already removed from the address bar). */
  fragmentToken: string | null;
  fragmentSettings: LaunchSettings;
  /**
   * Framed with a token in the fragment but no valid `parent`: the server could not check who frames
   * us, so the frame refuses rather than start a session nobody vouched for.
   */
  originRefused: boolean;
}

/** Cookie mode: the session no longer needs the fragment's token, so the frame stops holding it. */
export const forgetLaunchToken = (launch: LaunchContext): void => {
  launch.fragmentToken = null;
};

export const isWidgetView = (value: unknown): value is WidgetView =>
  typeof value === 'string' && (WIDGET_VIEWS as readonly string[]).includes(value);
export const isWidgetLocale = (value: unknown): value is WidgetLocale =>
  typeof value === 'string' && (WIDGET_LOCALES as readonly string[]).includes(value);

const decodeBase64UrlJson = (value: string): unknown => {
  try {
    const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
};

/** Keeps only the theme fields the frame knows, with the types it expects: the fragment is user-editable. */
export const sanitizeTheme = (value: unknown): WidgetTheme | undefined => {
  if (!value || typeof value !== 'object') return undefined;
  const raw = value as Record<string, unknown>;
  const theme: WidgetTheme = {};
  if (typeof raw.brandColor === 'string' && raw.brandColor.length <= 64) theme.brandColor = raw.brandColor;
  if (typeof raw.radius === 'number' && Number.isFinite(raw.radius)) theme.radius = Math.min(Math.max(raw.radius, 0), 32);
  if (typeof raw.fontFamily === 'string' && raw.fontFamily.length <= 200) theme.fontFamily = raw.fontFamily;
  if (raw.colorScheme === 'light' || raw.colorScheme === 'dark' || raw.colorScheme === 'auto')
    theme.colorScheme = raw.colorScheme;
  return theme;
};

const parentFromQuery = (query: URLSearchParams): string | null => {
  const parent = query.get('parent');
  if (!parent) return null;
  try {
    const origin = new URL(parent).origin;
    return origin === parent ? origin : null;
  } catch {
    return null;
  }
};

/** Reads how the frame was opened, and takes the token out of the address bar before anything else runs. */
export const readLaunchContext = (): LaunchContext => {
  const query = new URLSearchParams(window.location.search);
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const fragmentToken = fragment.get('userToken');
  if (window.location.hash) {
    // The token must not linger in history, screenshots of the URL bar, or a copied link.
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
  }
  const framed = window.parent !== window;
  const parentOrigin = framed ? parentFromQuery(query) : null;
  const fragmentSettings: LaunchSettings = {};
  const view = fragment.get('view');
  if (isWidgetView(view)) fragmentSettings.view = view;
  const locale = fragment.get('locale');
  if (isWidgetLocale(locale)) fragmentSettings.locale = locale;
  const theme = fragment.get('theme');
  if (theme) {
    const sanitized = sanitizeTheme(decodeBase64UrlJson(theme));
    if (sanitized) fragmentSettings.theme = sanitized;
  }
  const mode: LaunchMode = fragmentToken ? 'webview' : parentOrigin ? 'embedded' : 'standalone';
  // A framed page is never a top-level webview: it must name its parent, or the server would see `parentOrigin: null`.
  const originRefused = framed && fragmentToken !== null && parentOrigin === null;
  return {
    mode,
    parentOrigin,
    frameId: query.get('frameId') ?? 'default',
    fragmentToken: originRefused ? null : fragmentToken,
    fragmentSettings,
    originRefused,
  };
};
