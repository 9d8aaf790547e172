import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { createWidget, hostEventNames, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { newExternalUserId } from '../src/users.ts';

describe('creating the widget twice on one container (React StrictMode)', () => {
  const bank = useDemoBank({ demo: false, partnerPage: true });

  it('reports no refused frame when the page removes the container without destroy()', { timeout: 30_000 }, async () => {
    const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('removed'));
    const readyTimeoutMs = 1_000;
    await runJourney(bank.browser, 'desktop', 'container-removed', async ({ page }) => {
      await page.goto(bank.partnerPage.url);
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
      const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('strict'));
      await runJourney(bank.browser, 'desktop', 'double-create', async ({ page }) => {
        await page.goto(bank.partnerPage.url);
        await createWidget(page, { userToken, times: 2, destroyBetween });
        await widgetFrame(page).getByRole('heading', { name: 'Set up your credit score' }).waitFor();
        expect(await page.locator('#credit-widget iframe').count()).toBe(1);
        await expect.poll(() => hostEventNames(page)).toContain('ready');
      });
    });
  }
});
