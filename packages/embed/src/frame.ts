import type { WidgetLocale } from '@credit/contract/widget-protocol';

/** Before the frame reports its content height: room for the loading skeleton without a large jump. */
const INITIAL_HEIGHT_PX = 480;
/** A frame that claims more than this is misbehaving; the page must not grow without bound. */
const MAX_HEIGHT_PX = 20_000;

const TITLES: Record<WidgetLocale, string> = { en: 'Credit score', es: 'Puntaje de crédito' };

let frameCount = 0;

/** Tells frames on one page apart; not a secret (origin and source checks protect the channel). */
export const newFrameId = () => `cw${++frameCount}${Math.random().toString(36).slice(2, 8)}`;

export const frameUrl = (baseUrl: string, frameId: string) =>
  `${baseUrl}/widget?parent=${encodeURIComponent(location.origin)}&frameId=${encodeURIComponent(frameId)}`;

export const createFrame = (src: string, frameId: string, locale: WidgetLocale | undefined): HTMLIFrameElement => {
  const iframe = document.createElement('iframe');
  iframe.title = TITLES[locale ?? 'en'];
  iframe.referrerPolicy = 'strict-origin-when-cross-origin';
  iframe.setAttribute('data-credit-widget-frame', frameId);
  iframe.style.cssText = `display:block;width:100%;border:0;height:${INITIAL_HEIGHT_PX}px`;
  iframe.src = src;
  return iframe;
};

export const applyHeight = (iframe: HTMLIFrameElement, height: unknown) => {
  if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return;
  iframe.style.height = `${Math.min(Math.ceil(height), MAX_HEIGHT_PX)}px`;
};

/** Respects a reader who asked for less motion. */
export const scrollAndFocus = (iframe: HTMLIFrameElement) => {
  const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  iframe.scrollIntoView({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
  iframe.focus({ preventScroll: true });
};
