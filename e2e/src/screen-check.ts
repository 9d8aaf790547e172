import type { Browser, Page } from 'playwright-core';
import { type A11yViolation, findA11yViolations, formatViolations } from './a11y.ts';
import { type Device, type OpenedPage, openPage } from './browser.ts';
import { saveScreenshot } from './screenshots.ts';

/**
 * Per screen of a journey: a screenshot and an axe audit. Violations are collected, not thrown, so one
 * run reports every screen's problems and the journey still goes on to prove the flow works.
 */
export class ScreenAudit {
  readonly screenshots: string[] = [];
  readonly failures: { screen: string; violations: A11yViolation[] }[] = [];

  constructor(
    private readonly page: Page,
    private readonly device: Device,
  ) {}

  /** `screenshot: false` where another journey pictures the same screen: a full-page shot costs a second or so. */
  async check(screen: string, { screenshot = true }: { screenshot?: boolean } = {}): Promise<void> {
    if (screenshot) this.screenshots.push(await saveScreenshot(this.page, screen, this.device));
    const violations = await findA11yViolations(this.page);
    if (violations.length) this.failures.push({ screen, violations });
  }

  report(): string {
    return this.failures.map((f) => formatViolations(f.screen, f.violations)).join('\n');
  }
}

export interface JourneyPage extends OpenedPage {
  audit: ScreenAudit;
  /** Every request URL of the context (all pages, popups and frames), in order. */
  requestUrls: string[];
}

/**
 * A user token is a bearer credential: it may travel in a header or a message, never in a URL, where
 * server logs, referrers and history keep it. The fragment is left out: the browser never sends it, and
 * the webview protocol hands the token over there (the frame removes it at once).
 */
export const USER_TOKEN_IN_URL = /(?<![A-Za-z0-9_])ut_/;
export const urlsWithUserToken = (urls: string[]): string[] =>
  urls.filter((url) => USER_TOKEN_IN_URL.test(url.split('#')[0] ?? url));

/** The visible text of the page and each frame (the widget's, say), shortened: a screenshot CI may not keep. */
const whatFramesShow = async (page: Page): Promise<string> => {
  const texts = await Promise.all(
    page.frames().map(async (frame) => {
      // Bounded: a hung frame must not hold the failure (and its message) until the test's own timeout.
      const text = await frame
        .locator('body')
        // biome-ignore lint/performance/useDomNodeTextContent: what a person sees, without hidden text, is the point.
        .innerText({ timeout: 2000 })
        .catch((error: unknown) => `(unreadable: ${(error as Error).message.split('\n')[0]})`);
      return `  ${frame === page.mainFrame() ? 'page' : `frame ${frame.url()}`}: ${text.replace(/\s+/g, ' ').slice(0, 600)}`;
    }),
  );
  return texts.join('\n');
};

/**
 * Runs a journey on a fresh browser context. A failure keeps a screenshot of where it stopped and the
 * page's own errors, which usually name the culprit faster than the assertion does.
 */
export const runJourney = async (
  browser: Browser,
  device: Device,
  name: string,
  journey: (opened: JourneyPage) => Promise<void>,
): Promise<void> => {
  const opened = await openPage(browser, device);
  const audit = new ScreenAudit(opened.page, device);
  const requestUrls: string[] = [];
  opened.context.on('request', (request) => requestUrls.push(request.url()));
  try {
    await journey({ ...opened, audit, requestUrls });
    const leaked = urlsWithUserToken(requestUrls);
    if (leaked.length) throw new Error(`A user token appeared in ${leaked.length} request URL(s):\n${leaked.join('\n')}`);
  } catch (error) {
    const shot = await saveScreenshot(opened.page, `${name}-failure`, device).catch(() => 'none');
    const problems = opened.problems.length ? opened.problems.join('\n') : 'none';
    const shown = await whatFramesShow(opened.page);
    const a11y = audit.failures.length ? `\naccessibility so far:\n${audit.report()}` : '';
    throw new Error(
      `${(error as Error).message}\nscreenshot: ${shot}\npage problems:\n${problems}\nwhat the page showed:\n${shown}${a11y}`,
      { cause: error },
    );
  } finally {
    await opened.context.close();
  }
};
