import type { WidgetLocale, WidgetView } from '@credit/contract/widget-protocol';

/**
 * Space reserved before the frame reports its content height: about what a verified customer's first
 * screen measures at phone and desktop widths (a new customer's enrolment form is about 900–1,000 px), so
 * the partner's page below the widget does not jump when the content arrives.
 */
export const DEFAULT_INITIAL_HEIGHT_PX: Record<WidgetView, number> = {
  score: 800,
  factors: 1900,
  report: 3000,
  simulator: 900,
  history: 680,
  offers: 2000,
  alerts: 480,
};
/** A frame that claims more than this is misbehaving; the page must not grow without bound. */
const MAX_HEIGHT_PX = 20_000;

const TITLES: Record<WidgetLocale, string> = { en: 'Credit score', es: 'Puntaje de crédito' };

let frameCount = 0;

/** Tells frames on one page apart; not a secret (origin and source checks protect the channel). */
export const newFrameId = () => `cw${++frameCount}${Math.random().toString(36).slice(2, 8)}`;

export const frameUrl = (baseUrl: string, frameId: string) =>
  `${baseUrl}/widget?parent=${encodeURIComponent(location.origin)}&frameId=${encodeURIComponent(frameId)}`;

export const createFrame = (
  src: string,
  frameId: string,
  locale: WidgetLocale | undefined,
  initialHeight: number,
): HTMLIFrameElement => {
  const iframe = document.createElement('iframe');
  iframe.title = TITLES[locale ?? 'en'];
  iframe.referrerPolicy = 'strict-origin-when-cross-origin';
  iframe.setAttribute('data-credit-widget-frame', frameId);
  iframe.style.cssText = `display:block;width:100%;border:0;height:${initialHeight}px`;
  iframe.src = src;
  return iframe;
};

/** A usable reported height, or null for a message that is not one. */
export const validHeight = (height: unknown): number | null =>
  typeof height === 'number' && Number.isFinite(height) && height >= 0 ? Math.min(Math.ceil(height), MAX_HEIGHT_PX) : null;

export const applyHeight = (iframe: HTMLIFrameElement, height: number) => {
  iframe.style.height = `${height}px`;
};

/**
 * Gives the container a `min-height` until the widget shows its first screen, unless the page already
 * reserves as much itself. Returns the undo, which restores what the page had.
 */
export const reserveSpace = (container: HTMLElement, height: number): (() => void) => {
  const reserved = Number.parseFloat(getComputedStyle(container).minHeight);
  if (Number.isFinite(reserved) && reserved >= height) return () => {};
  const previous = container.style.minHeight;
  container.style.minHeight = `${height}px`;
  let undone = false;
  return () => {
    if (undone) return;
    undone = true;
    container.style.minHeight = previous;
  };
};

/** Respects a reader who asked for less motion. */
export const scrollAndFocus = (iframe: HTMLIFrameElement) => {
  const reduce = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  iframe.scrollIntoView({ block: 'nearest', behavior: reduce ? 'auto' : 'smooth' });
  iframe.focus({ preventScroll: true });
};
