import type { Page } from 'playwright-core';

/**
 * Headless Chromium never hides a tab (another tab in front, a minimised window: pages stay `visible`), so
 * this plays the browser's part: every document of the page, the widget's frame included, reports
 * `visibilityState` and `hidden` as a hidden tab would and receives `visibilitychange`, as in a real tab switch.
 */
export const setPageVisibility = async (page: Page, state: 'hidden' | 'visible'): Promise<void> => {
  await Promise.all(
    page.frames().map((frame) =>
      frame.evaluate((next) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => next });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => next === 'hidden' });
        // Fired at the document; it reaches listeners on window too, as the browser's own event does.
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      }, state),
    ),
  );
};
