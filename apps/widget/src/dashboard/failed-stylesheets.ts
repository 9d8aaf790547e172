/**
 * Stylesheets that failed to download, so that "Try again" on a lazy panel loads them too. Vite's preload helper adds
 * a chunk's stylesheet the first time the chunk is imported and never again in the same page, even when that download
 * failed: a retried import alone brings the panel back unstyled. The links are found through their `error` events
 * (captured on the document: they do not bubble), listened to from the moment the frame's entry script runs.
 */
const failed = new Set<HTMLLinkElement>();

if (typeof document !== 'undefined') {
  document.addEventListener(
    'error',
    (event) => {
      if (event.target instanceof HTMLLinkElement && event.target.rel === 'stylesheet') failed.add(event.target);
    },
    true,
  );
}

const reload = (broken: HTMLLinkElement) =>
  new Promise<void>((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = broken.href;
    if (broken.crossOrigin !== null) link.crossOrigin = broken.crossOrigin;
    if (broken.nonce) link.nonce = broken.nonce;
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => reject(new Error(`Unable to load the stylesheet ${broken.href}`)), { once: true });
    // In the failed link's place, so the cascade's order stays the one the build chose.
    broken.replaceWith(link);
  });

/** Downloads every stylesheet that failed so far once more; rejects if one fails again (it stays listed for later). */
export const reloadFailedStylesheets = async (): Promise<void> => {
  const broken = [...failed].filter((link) => link.isConnected);
  failed.clear();
  await Promise.all(broken.map(reload));
};
