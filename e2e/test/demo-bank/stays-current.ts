import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DemoBank } from '../../src/demo-bank.ts';
import { shownScore, widgetFrame } from '../../src/pages.ts';
import { runJourney } from '../../src/screen-check.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../../src/users.ts';
import { setPageVisibility } from '../../src/visibility.ts';

/** Longer than the widget waits between looks for new alerts (a minute), and than its data stays fresh. */
const A_WHILE_MS = 2 * 60_000;

/** Survives only if the page is never reloaded. */
const markPage = (page: Page) =>
  page.evaluate(() => {
    window.__marker = 'still the same page';
  });
const pageMarker = (page: Page) => page.evaluate(() => window.__marker);

const showAlerts = async (frame: FrameLocator) => {
  await frame.getByRole('tab', { name: /alerts/i }).click();
  await frame.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
};

export const staysCurrentJourneys = (bank: DemoBank) =>
  describe('the widget stays current without a reload', () => {
    const openActiveCustomer = async (prefix: string) => {
      const externalUserId = newExternalUserId(prefix);
      const userId = await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
      return { externalUserId, userId };
    };

    const currentScore = async (userId: string): Promise<number> => {
      return (await bank.sdk.call('getCreditScore', { params: { userId } })).score;
    };

    const alertTitles = async (userId: string): Promise<string[]> => {
      const alerts = await bank.sdk.call('listAlerts', { params: { userId }, query: { status: 'all' } });
      return alerts.data.map((alert) => alert.title);
    };

    it("shows the new score after the bank's Refresh score button (the handle's refresh())", { timeout: 60_000 }, async () => {
      const { externalUserId, userId } = await openActiveCustomer('refresh');
      await runJourney(bank.browser, 'desktop', 'refresh-score', async ({ page }) => {
        await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
        const frame = widgetFrame(page);
        await shownScore(frame, JANE.score).waitFor();
        await markPage(page);

        await page.getByRole('button', { name: 'Refresh score' }).click();
        await page.locator('#sandbox-status', { hasText: /Score refreshed/ }).waitFor();
        const refreshed = await currentScore(userId);
        expect(refreshed, 'the sandbox moved the score (else this test proves nothing)').not.toBe(JANE.score);

        await shownScore(frame, refreshed).waitFor();
        expect(await pageMarker(page), 'no reload').toBe('still the same page');
      });
    });

    it('shows a new alert on the open Alerts tab: at once after refresh(), within a minute by itself', {
      timeout: 60_000,
    }, async () => {
      const { externalUserId, userId } = await openActiveCustomer('alerts');
      await runJourney(bank.browser, 'desktop', 'alert-arrives', async ({ page }) => {
        // The page's clock runs on its own but can jump a minute ahead: the widget's polling without the wait.
        await page.clock.install();
        await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
        const frame = widgetFrame(page);
        await shownScore(frame, JANE.score).waitFor();
        await showAlerts(frame);
        await frame.getByText('No alerts').waitFor();
        await markPage(page);

        // The bank's button sends the alert through its server, then calls the handle's refresh().
        await page.getByRole('button', { name: 'Send a test alert' }).click();
        await page.locator('#sandbox-status', { hasText: /test alert/i }).waitFor();
        const [sentByBank] = await alertTitles(userId);
        if (!sentByBank) throw new Error('the bank sent no alert');
        await frame.getByText(sentByBank).first().waitFor();

        // The bureau sends one while the customer looks at the tab; nobody tells the page.
        const created = await bank.sdk.call('sandboxCreateAlert', { params: { userId }, body: { type: 'fraud_alert' } });
        const fromBureau = created.title;
        expect(fromBureau).not.toBe(sentByBank);
        await page.clock.fastForward(A_WHILE_MS);
        await frame.getByText(fromBureau).first().waitFor();
        expect(await pageMarker(page), 'no reload').toBe('still the same page');
      });
    });

    it('fetches the score again when the customer comes back to a tab left hidden for a while', {
      timeout: 60_000,
    }, async () => {
      const { externalUserId, userId } = await openActiveCustomer('hidden');
      await runJourney(bank.browser, 'desktop', 'tab-returns', async ({ page }) => {
        await page.clock.install();
        await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
        const frame = widgetFrame(page);
        await shownScore(frame, JANE.score).waitFor();
        await markPage(page);

        await setPageVisibility(page, 'hidden');
        const moved = JANE.score + 25;
        await bank.sdk.call('sandboxRefreshScore', { params: { userId }, body: { score: moved } });
        await page.clock.fastForward(A_WHILE_MS);
        // Hidden, the widget has no reason to fetch: the old number may stay until someone looks.
        await setPageVisibility(page, 'visible');

        await shownScore(frame, moved).waitFor();
        expect(await pageMarker(page), 'no reload').toBe('still the same page');
      });
    });
  });
