import type { CreditWidgetApi } from '@credit/embed/types';

/**
 * One load per loader URL for the whole page, however many widgets mount (or StrictMode mounts them twice):
 * the loader keeps page-wide bookkeeping on `window.CreditWidget`, so a second copy must never run.
 * Lives on the page, not in a component: it is exactly as global as the script tag it stands for.
 */
const loads = new Map<string, Promise<CreditWidgetApi>>();

const findScript = (src: string): HTMLScriptElement | undefined =>
  Array.from(document.querySelectorAll('script')).find((script) => script.src === src);

const injectScript = (src: string): Promise<CreditWidgetApi> =>
  new Promise((resolve, reject) => {
    // A page that already has the loader's <script> tag (added by hand, or by another copy of this package)
    // keeps it: the loader only runs once anyway.
    const existing = findScript(src);
    const script = existing ?? document.createElement('script');
    script.addEventListener(
      'load',
      () =>
        window.CreditWidget ? resolve(window.CreditWidget) : reject(new Error(`CreditWidget: ${src} ran but defined no loader`)),
      { once: true },
    );
    script.addEventListener(
      'error',
      () => {
        script.remove();
        reject(new Error(`CreditWidget: could not load ${src}`));
      },
      { once: true },
    );
    if (existing) return;
    script.src = src;
    script.async = true;
    document.head.appendChild(script);
  });

/** The page's `window.CreditWidget`, adding the loader's script tag the first time it is needed. */
export const loadEmbed = (src: string): Promise<CreditWidgetApi> => {
  if (window.CreditWidget) return Promise.resolve(window.CreditWidget);
  let loading = loads.get(src);
  if (!loading) {
    loading = injectScript(src);
    loads.set(src, loading);
    // A failed load may be retried by the next widget that mounts (the network may be back).
    loading.catch(() => loads.delete(src));
  }
  return loading;
};

/** Where the widget is served: the folder `embed.js` lives in, as the loader itself would work it out. */
export const widgetBaseUrl = (embedUrl: string): string => new URL('.', embedUrl).href.replace(/\/+$/, '');
