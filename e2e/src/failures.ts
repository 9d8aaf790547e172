import type { BrowserContext } from 'playwright-core';

/**
 * Everything a customer's browser would flag on a visit: console errors (a 4xx on a fetch is one too),
 * uncaught errors, and every HTTP answer of 400 or more, of the page, its frames and popups.
 */
export const watchFailures = (context: BrowserContext): string[] => {
  const failures: string[] = [];
  context.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console error (${message.location().url}): ${message.text()}`);
  });
  context.on('weberror', (error) => failures.push(`uncaught: ${error.error().message}`));
  context.on('response', (response) => {
    if (response.status() >= 400) failures.push(`HTTP ${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return failures;
};
