import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import { hostEvents, NetworkLog, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type RunningServer, startApi, startDemo, type TestApp } from '../src/servers.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

const USER_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

describe('user token expiry while the widget is open', () => {
  let browser: Browser;
  let app: TestApp;
  let partner: Partner;
  let demo: RunningServer;

  beforeAll(async () => {
    assertBuilt();
    [browser, app] = await Promise.all([launchBrowser(), startApi()]);
    partner = await createPartner(app, ['http://localhost:*']);
    demo = await startDemo(app, partner);
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
    await app?.close();
  });

  it('gets a fresh token from the host page and carries on without reloading', { timeout: 60_000 }, async () => {
    const externalUserId = newExternalUserId('expiry');
    await enrolActiveUser(app, partner.accessToken, externalUserId);
    await runJourney(browser, 'desktop', 'token-expiry', async ({ page }) => {
      const network = new NetworkLog(page);
      await page.goto(`${demo.url}/?user=${externalUserId}`);
      const frame = widgetFrame(page);
      await frame.getByText(String(JANE.score)).first().waitFor();
      // Survives only if the page is never reloaded.
      await page.evaluate(() => {
        window.__marker = 'still the same page';
      });
      const exchangesBefore = network.matching('POST', /^\/widget\/session$/).length;

      app.clock.advance(USER_TOKEN_LIFETIME_MS + 60_000);
      await frame.getByRole('tab', { name: /offers/i }).click();

      await frame.getByRole('button', { name: /apply/i }).first().waitFor();
      await expect
        .poll(() => network.matching('POST', /^\/token$/).length, { message: 'the host page was asked for a token' })
        .toBeGreaterThanOrEqual(1);
      expect(network.matching('POST', /^\/widget\/session$/).length, 'a second session exchange').toBeGreaterThan(
        exchangesBefore,
      );
      expect(await page.evaluate(() => window.__marker)).toBe('still the same page');
      await expect.poll(() => frame.getByText('Your session has ended').count()).toBe(0);
      const errors = (await hostEvents(page)).filter((event) => event.name === 'error');
      expect(errors, 'no error event reached the host').toEqual([]);
    });
  });
});
