/**
 * `/embed.js`: the loader partners put on their page. Defines `window.CreditWidget` and starts every
 * `[data-credit-widget]` element once the DOM is ready. See types.ts for the public API.
 */
import { scan } from './declarative.ts';
import type { CreditWidgetApi } from './types.ts';
import { createWidget, widgetIn } from './widget.ts';

export type * from './types.ts';

const VERSION = '1.0.0';

const install = () => {
  // A page that includes the script twice keeps the first copy, so container bookkeeping stays in one place.
  if (window.CreditWidget) return;
  // Only known while this script first runs; it tells the loader where the widget is served.
  const script = document.currentScript;
  const scriptSrc = script instanceof HTMLScriptElement && script.src ? script.src : undefined;
  const api: CreditWidgetApi = {
    version: VERSION,
    create: (options) => createWidget(options, scriptSrc),
    scan: (root = document) => scan(root, scriptSrc),
    get: (container) => {
      const element = typeof container === 'string' ? document.querySelector(container) : container;
      return element instanceof HTMLElement ? widgetIn(element) : undefined;
    },
  };
  window.CreditWidget = api;
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => api.scan(), { once: true });
  } else {
    api.scan();
  }
};

if (typeof window !== 'undefined' && typeof document !== 'undefined') install();
