import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { submitJaneEnrolment } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

/** A React Native host: the app injects `ReactNativeWebView` before any page script runs. */
const installNativeBridge = (page: Page) =>
  page.addInitScript(() => {
    const bridged: { name: string }[] = [];
    window.__bridged = bridged;
    window.ReactNativeWebView = { postMessage: (message: string) => bridged.push(JSON.parse(message)) };
    // A webview without a handler for new windows: window.open gives nothing back.
    window.open = () => null;
  });

const bridgedNames = (page: Page) => page.evaluate(() => (window.__bridged ?? []).map((event) => event.name));

/** Wider content than the viewport means the customer has to scroll sideways. */
const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('mobile webview mode', () => {
  // Webviews open the widget top-level: no embedding page, so no embed origin is involved.
  const bank = useDemoBank({ embedOrigins: ['https://bank.example'], demo: false });

  it('shows the score at 390 px, drops the token from the URL, bridges events, and fits 320 px', {
    timeout: 90_000,
  }, async () => {
    const externalUserId = newExternalUserId('mobile');
    await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
    const userToken = await bank.app.userToken(bank.partner.accessToken, externalUserId, {
      firstName: JANE.firstName,
      lastName: JANE.lastName,
    });
    await runJourney(bank.browser, 'mobile', 'webview', async ({ page, audit }) => {
      await installNativeBridge(page);
      await page.goto(`${bank.app.url}/widget#userToken=${encodeURIComponent(userToken)}`);

      await page.getByText(String(JANE.score)).first().waitFor();
      await expect.poll(() => page.getByText(new RegExp(JANE.bureau)).first().isVisible()).toBe(true);
      expect(new URL(page.url()).hash, 'the token left the address bar').toBe('');
      await expect.poll(() => bridgedNames(page), { message: 'events through ReactNativeWebView' }).toContain('ready');
      expect(await horizontalOverflow(page), 'sideways scroll at 390 px').toBeLessThanOrEqual(0);
      await audit.check('webview-score');

      for (const [tab, screen] of [
        [/factors/i, 'webview-factors'],
        [/history/i, 'webview-history'],
        [/offers/i, 'webview-offers'],
        [/alerts/i, 'webview-alerts'],
      ] as const) {
        await page.getByRole('tab', { name: tab }).click();
        await expect.poll(() => page.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true');
        await page.getByRole('tabpanel').first().waitFor();
        expect(await horizontalOverflow(page), `sideways scroll on ${screen} at 390 px`).toBeLessThanOrEqual(0);
        await audit.check(screen);
      }
      await expect.poll(() => bridgedNames(page)).toContain('view_changed');

      // No window to open: once the click is recorded, the customer gets a link to follow instead.
      await page.getByRole('tab', { name: /offers/i }).click();
      await page.getByRole('button', { name: /apply/i }).first().click();
      const continueLink = page.getByRole('link', { name: /continue to the application/i });
      await continueLink.waitFor();
      await expect.poll(() => bridgedNames(page)).toContain('offer_clicked');
      expect(await continueLink.getAttribute('href')).toMatch(/^https?:\/\//);
      await audit.check('webview-offer-link');

      await page.getByRole('tab', { name: /score/i }).click();
      await page.setViewportSize({ width: 320, height: 700 });
      await page.getByText(String(JANE.score)).first().waitFor();
      expect(await horizontalOverflow(page), 'sideways scroll at 320 px').toBeLessThanOrEqual(0);
      await audit.check('webview-score-320');

      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('shows the enrolment form and the identity questions at 390 px', { timeout: 60_000 }, async () => {
    const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('mobile-new'));
    await runJourney(bank.browser, 'mobile', 'webview-enroll', async ({ page, audit }) => {
      await installNativeBridge(page);
      await page.goto(`${bank.app.url}/widget#userToken=${encodeURIComponent(userToken)}`);
      await page.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
      expect(await horizontalOverflow(page), 'sideways scroll on the form').toBeLessThanOrEqual(0);
      await audit.check('webview-enroll');

      await submitJaneEnrolment(page);
      await page.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      await page.getByRole('button', { name: 'Start verification' }).click();

      await page.getByText('Question 1 of 3').waitFor();
      expect(await horizontalOverflow(page), 'sideways scroll on the questions').toBeLessThanOrEqual(0);
      await expect.poll(() => bridgedNames(page)).toContain('enrolled');
      await audit.check('webview-verify');
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
