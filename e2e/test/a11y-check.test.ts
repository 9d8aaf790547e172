import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AXE_TAGS, findA11yViolations } from '../src/a11y.ts';
import { openPage, sharedBrowser } from '../src/browser.ts';
import { type RunningServer, servePage } from '../src/servers.ts';

/**
 * The journeys' accessibility check merges axe's per-frame results in one shared page per browser instead of the new
 * page AxeBuilder opens for each audit (src/a11y.ts). It must still report what AxeBuilder reports, in the page and in
 * a cross-origin frame, or every journey's "no violations" would pass whatever the widget does.
 */
describe('the accessibility check', () => {
  let browser: Browser;
  let frame: RunningServer;
  let top: RunningServer;

  beforeAll(async () => {
    browser = await sharedBrowser();
    // A button without a name, in a frame on another origin (as the widget is on the partner's page).
    frame = await servePage('127.0.0.1', () => '<!doctype html><html lang="en"><title>frame</title><button></button></html>');
    // An image without a text alternative in the page itself.
    top = await servePage(
      'localhost',
      () =>
        `<!doctype html><html lang="en"><title>page</title><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">` +
        `<iframe title="widget" src="${frame.url}/"></iframe></main></html>`,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await frame?.close();
    await top?.close();
  });

  it('reports the violations of the page and of its cross-origin frame, as AxeBuilder does, audit after audit', async () => {
    // Two pages (axe runs once at a time in a page's frames): audited at the same time, they share the merge page.
    const pages = await Promise.all([openPage(browser), openPage(browser)]);
    for (const { page } of pages) {
      await page.goto(`${top.url}/`);
      await page.frameLocator('iframe').locator('button').waitFor({ state: 'attached' });
    }
    const [first, second] = pages.map(({ page }) => page) as [Page, Page];

    const expected = await new AxeBuilder({ page: first }).options({ runOnly: { type: 'tag', values: AXE_TAGS } }).analyze();
    const asAxeBuilder = expected.violations.map((v) => [v.id, v.nodes.map((node) => JSON.stringify(node.target))]);
    expect(asAxeBuilder.map(([rule]) => rule)).toEqual(expect.arrayContaining(['image-alt', 'button-name']));

    const audits = [
      ...(await Promise.all([findA11yViolations(first), findA11yViolations(second)])),
      await findA11yViolations(first),
    ];
    for (const violations of audits) {
      expect(violations.map((v) => [v.rule, v.targets])).toEqual(asAxeBuilder);
    }
    // The frame's button is named by its path through the iframe.
    const button = audits[0]?.find((v) => v.rule === 'button-name');
    expect(button?.targets).toEqual([JSON.stringify(['iframe', 'button'])]);
  });

  it('audits a frame that is slow to take axe, where AxeBuilder gives up after a second and skips it', async () => {
    // Told to, the frame's page keeps its thread busy for 2 s: loading axe into it waits past AxeBuilder's 1 s.
    const busy = await servePage(
      '127.0.0.1',
      () =>
        '<!doctype html><html lang="en"><title>busy frame</title><button></button><script>' +
        "addEventListener('message', () => setTimeout(() => { const end = Date.now() + 2000; while (Date.now() < end); }));" +
        '</script></html>',
    );
    const page = await servePage(
      'localhost',
      () =>
        `<!doctype html><html lang="en"><title>page</title><main><iframe title="widget" src="${busy.url}/"></iframe></main></html>`,
    );
    const { context, page: tab } = await openPage(browser);
    try {
      await tab.goto(`${page.url}/`);
      await tab.frameLocator('iframe').locator('button').waitFor({ state: 'attached' });
      await tab.evaluate(() => document.querySelector('iframe')?.contentWindow?.postMessage('busy', '*'));
      const violations = await findA11yViolations(tab);
      expect(violations.find((v) => v.rule === 'button-name')?.targets).toEqual([JSON.stringify(['iframe', 'button'])]);
    } finally {
      await context.close();
      await busy.close();
      await page.close();
    }
  });
});
