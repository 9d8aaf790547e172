import { WIDGET_LOCALES, WIDGET_VIEWS, type WidgetTheme, type WidgetView } from '@credit/contract/widget-protocol';
import type { CreditWidgetOptions } from './types.ts';

export const DEFAULT_READY_TIMEOUT_MS = 15_000;

/** Options after validation: the container is an element and the widget's origin is known. */
export interface ResolvedOptions extends Omit<CreditWidgetOptions, 'container' | 'baseUrl' | 'readyTimeoutMs'> {
  container: HTMLElement;
  /** Without a trailing slash, e.g. `https://api.example` or `https://cdn.example/credit`. */
  baseUrl: string;
  widgetOrigin: string;
  readyTimeoutMs: number;
}

export const fail = (message: string): never => {
  throw new Error(`CreditWidget: ${message}`);
};

const oneOf = (what: string, value: unknown, allowed: readonly string[]) => {
  if (value !== undefined && !allowed.includes(value as string)) {
    fail(`unknown ${what} ${JSON.stringify(value)}; use one of ${allowed.join(', ')}`);
  }
};

export const checkView = (view: unknown): WidgetView | undefined => {
  oneOf('view', view, WIDGET_VIEWS);
  return view as WidgetView | undefined;
};

export const checkUserToken = (token: unknown): string => {
  if (typeof token !== 'string' || !token.startsWith('ut_')) {
    fail('userToken must be a user token starting with "ut_" (mint one on your server with POST /v1/auth/user-token)');
  }
  return token as string;
};

const checkFunction = (name: string, value: unknown) => {
  if (value !== undefined && typeof value !== 'function') fail(`${name} must be a function`);
};

const checkTheme = (theme: unknown): WidgetTheme | undefined => {
  if (theme === undefined) return undefined;
  if (typeof theme !== 'object' || theme === null) return fail('theme must be an object');
  const { brandColor, radius, fontFamily, colorScheme } = theme as WidgetTheme;
  if (brandColor !== undefined && typeof brandColor !== 'string') fail('theme.brandColor must be a CSS colour string');
  if (radius !== undefined && !(typeof radius === 'number' && radius >= 0 && radius <= 64)) {
    fail('theme.radius must be a number of px between 0 and 64');
  }
  if (fontFamily !== undefined && typeof fontFamily !== 'string') fail('theme.fontFamily must be a string');
  oneOf('theme.colorScheme', colorScheme, ['light', 'dark', 'auto']);
  return { brandColor, radius, fontFamily, colorScheme };
};

const resolveContainer = (container: unknown, doc: Document): HTMLElement => {
  if (typeof container === 'string') {
    const found = doc.querySelector(container);
    return found instanceof HTMLElement ? found : fail(`no element matches container ${JSON.stringify(container)}`);
  }
  if (container instanceof HTMLElement) return container;
  return fail('options.container is required: an element or a CSS selector');
};

const resolveBaseUrl = (baseUrl: unknown, scriptSrc: string | undefined) => {
  const raw = baseUrl ?? scriptSrc;
  if (raw === undefined) {
    return fail('cannot tell where the widget is served: load embed.js with a <script src> or pass options.baseUrl');
  }
  let url: URL | undefined;
  try {
    url = new URL(String(raw), location.href);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol)) return fail(`baseUrl ${JSON.stringify(raw)} is not an http(s) URL`);
  // A script URL names a file; the widget lives beside it. An explicit baseUrl names the folder.
  const path = baseUrl === undefined ? url.pathname.replace(/\/[^/]*$/, '') : url.pathname.replace(/\/+$/, '');
  return { baseUrl: url.origin + path, widgetOrigin: url.origin };
};

export const resolveOptions = (options: CreditWidgetOptions, scriptSrc: string | undefined): ResolvedOptions => {
  if (typeof options !== 'object' || options === null) fail('create(options) needs an options object');
  const container = resolveContainer(options.container, document);
  const userToken = checkUserToken(options.userToken);
  const view = checkView(options.view);
  oneOf('locale', options.locale, WIDGET_LOCALES);
  const theme = checkTheme(options.theme);
  checkFunction('onEvent', options.onEvent);
  checkFunction('onExit', options.onExit);
  checkFunction('onTokenExpired', options.onTokenExpired);
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  if (!(typeof readyTimeoutMs === 'number' && readyTimeoutMs > 0)) fail('readyTimeoutMs must be a positive number');
  const { initialHeight } = options;
  if (initialHeight !== undefined && !(typeof initialHeight === 'number' && initialHeight >= 0 && initialHeight <= 20_000)) {
    fail('initialHeight must be a number of px between 0 and 20000');
  }
  return {
    ...options,
    ...resolveBaseUrl(options.baseUrl, scriptSrc),
    container,
    userToken,
    view,
    theme,
    readyTimeoutMs,
  };
};
