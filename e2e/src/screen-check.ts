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

  async check(screen: string): Promise<void> {
    this.screenshots.push(await saveScreenshot(this.page, screen, this.device));
    const violations = await findA11yViolations(this.page);
    if (violations.length) this.failures.push({ screen, violations });
  }

  report(): string {
    return this.failures.map((f) => formatViolations(f.screen, f.violations)).join('\n');
  }
}

export interface JourneyPage extends OpenedPage {
  audit: ScreenAudit;
}

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
  try {
    await journey({ ...opened, audit });
  } catch (error) {
    const shot = await saveScreenshot(opened.page, `${name}-failure`, device).catch(() => 'none');
    const problems = opened.problems.length ? opened.problems.join('\n') : 'none';
    const a11y = audit.failures.length ? `\naccessibility so far:\n${audit.report()}` : '';
    throw new Error(`${(error as Error).message}\nscreenshot: ${shot}\npage problems:\n${problems}${a11y}`, { cause: error });
  } finally {
    await opened.context.close();
  }
};
