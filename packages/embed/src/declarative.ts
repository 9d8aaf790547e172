import type { WidgetLocale, WidgetTheme, WidgetView } from '@credit/contract/widget-protocol';
import { fetchTokenFrom } from './token-refresh.ts';
import type { CreditWidgetHandle, CreditWidgetOptions } from './types.ts';
import { createWidget, widgetIn } from './widget.ts';

export const DECLARATIVE_SELECTOR = '[data-credit-widget]';

/**
 * `<div data-credit-widget data-user-token data-token-url data-view data-locale data-initial-height data-brand-color
 * data-color-scheme data-radius data-font-family>`.
 */
export const optionsFromElement = (element: HTMLElement): CreditWidgetOptions => {
  const data = element.dataset;
  const theme: WidgetTheme = {};
  if (data.brandColor) theme.brandColor = data.brandColor;
  if (data.colorScheme) theme.colorScheme = data.colorScheme as WidgetTheme['colorScheme'];
  if (data.radius) theme.radius = Number(data.radius);
  if (data.fontFamily) theme.fontFamily = data.fontFamily;
  return {
    container: element,
    userToken: data.userToken ?? '',
    view: (data.view || undefined) as WidgetView | undefined,
    locale: (data.locale || undefined) as WidgetLocale | undefined,
    theme: Object.keys(theme).length ? theme : undefined,
    onTokenExpired: data.tokenUrl ? fetchTokenFrom(data.tokenUrl) : undefined,
    initialHeight: data.initialHeight ? Number(data.initialHeight) : undefined,
  };
};

/**
 * Starts each declarative element under `root` that has no widget yet, so scanning twice is harmless.
 * A bad element is reported and skipped: one mistake must not keep the other widgets from starting.
 */
export const scan = (root: ParentNode, scriptSrc: string | undefined): CreditWidgetHandle[] => {
  const elements = Array.from(root.querySelectorAll<HTMLElement>(DECLARATIVE_SELECTOR));
  if (root instanceof HTMLElement && root.matches(DECLARATIVE_SELECTOR)) elements.unshift(root);
  const started: CreditWidgetHandle[] = [];
  for (const element of elements) {
    if (widgetIn(element)) continue;
    const options = optionsFromElement(element);
    // The token now lives in the loader's memory only: no other script on the page can read it from the DOM.
    element.removeAttribute('data-user-token');
    try {
      started.push(createWidget(options, scriptSrc));
    } catch (error) {
      console.error(error);
    }
  }
  return started;
};
