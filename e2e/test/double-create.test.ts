import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import { createWidget, hostEventNames, partnerPageHtml, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type RunningServer, servePage, startApi, type TestApp } from '../src/servers.ts';
import { newExternalUserId } from '../src/users.ts';

describe('creating the widget twice on one container (React StrictMode)', () => {
  let browser: Browser;
  let app: TestApp;
  let partner: Partner;
  let partnerPage: RunningServer;

  beforeAll(async () => {
    assertBuilt();
    [browser, app] = await Promise.all([launchBrowser(), startApi()]);
    partner = await createPartner(app, ['http://localhost:*']);
    partnerPage = await servePage('localhost', () => partnerPageHtml(app.url));
  });

  afterAll(async () => {
    await browser?.close();
    await partnerPage?.close();
    await app?.close();
  });

  it('reports no refused frame when the page removes the container without destroy()', { timeout: 30_000 }, async () => {
    const userToken = await app.userToken(partner.accessToken, newExternalUserId('removed'));
    const readyTimeoutMs = 1_000;
    await runJourney(browser, 'desktop', 'container-removed', async ({ page }) => {
      await page.goto(partnerPage.url);
      await createWidget(page, { userToken, readyTimeoutMs });
      // A single-page app navigating away: the container goes, nobody calls destroy().
      await page.evaluate(() => document.getElementById('credit-widget')?.remove());
      await page.waitForTimeout(readyTimeoutMs * 2);
      expect(await hostEventNames(page)).not.toContain('error');
    });
  });

  for (const [variant, destroyBetween] of [
    ['create, create', false],
    ['create, destroy, create (effect cleanup)', true],
  ] as const) {
    it(`leaves one working widget after ${variant}`, { timeout: 30_000 }, async () => {
      const userToken = await app.userToken(partner.accessToken, newExternalUserId('strict'));
      await runJourney(browser, 'desktop', 'double-create', async ({ page }) => {
        await page.goto(partnerPage.url);
        await createWidget(page, { userToken, times: 2, destroyBetween });
        await widgetFrame(page).getByRole('heading', { name: 'Set up your credit score' }).waitFor();
        expect(await page.locator('#credit-widget iframe').count()).toBe(1);
        await expect.poll(() => hostEventNames(page)).toContain('ready');
      });
    });
  }
});
