import { describe, expect, it } from 'vitest';
import type { DemoBank } from '../../src/demo-bank.ts';
import { watchFailures } from '../../src/failures.ts';
import { hostEvents, shownScore, widgetFrame } from '../../src/pages.ts';
import { runJourney } from '../../src/screen-check.ts';
import { enrolActiveUser, newExternalUserId } from '../../src/users.ts';

export const reactPageJourneys = (bank: DemoBank) =>
  describe('the React page (@credit/react)', () => {
    it('shows a customer their score in the widget the component renders, in one frame, and follows its props', {
      timeout: 60_000,
    }, async () => {
      const externalUserId = newExternalUserId('react');
      const userId = await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
      await runJourney(bank.browser, 'desktop', 'react-page', async ({ page, context, audit }) => {
        const failures = watchFailures(context);
        await page.goto(`${bank.demo.url}/react?user=${externalUserId}`);
        const frame = widgetFrame(page);
        // The score the API holds for this customer (Jane's sandbox file on the day she was enrolled).
        const enrolledScore = (await bank.sdk.call('getCreditScore', { params: { userId } })).score;
        await shownScore(frame, enrolledScore).waitFor();
        await audit.check('react-score');

        // The page renders in StrictMode: effects ran twice, yet there is one loader and one frame.
        expect(await page.locator('iframe').count()).toBe(1);
        expect(await page.locator('script[src$="/embed.js"]').count()).toBe(1);
        // The container held the loader's height until the score showed, then gave it back to the frame's own.
        const container = page.locator('[data-credit-widget-container]');
        expect(await container.evaluate((element: HTMLElement) => element.style.minHeight)).toBe('');
        // score_loaded says nothing about the score: this client's disclosure setting is the default, none.
        await expect
          .poll(() => hostEvents(page))
          .toEqual([
            { name: 'ready', data: { view: 'score' } },
            { name: 'score_loaded', data: { userId: expect.any(String), disclosure: 'none' } },
          ]);

        // A new `view` prop switches the tab inside the same frame.
        const frameBefore = await page.locator('iframe').getAttribute('src');
        await page.getByRole('button', { name: 'Show my offers' }).click();
        await frame.getByRole('tab', { name: /offers/i, selected: true }).waitFor();
        await expect.poll(() => hostEvents(page)).toContainEqual({ name: 'view_changed', data: { view: 'offers' } });
        expect(await page.locator('iframe').getAttribute('src')).toBe(frameBefore);

        // The ref's refresh(): the bank moved the score on its server, and the widget shows it without a reload.
        await frame.getByRole('tab', { name: /score/i }).click();
        await page.getByRole('button', { name: 'Refresh score' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /Score refreshed/ })
          .waitFor();
        const refreshed = (await bank.sdk.call('getCreditScore', { params: { userId } })).score;
        expect(refreshed, 'the sandbox moved the score (else this step proves nothing)').not.toBe(enrolledScore);
        await shownScore(frame, refreshed).waitFor();

        expect(failures).toEqual([]);
        expect.soft(audit.failures, audit.report()).toEqual([]);
      });
    });
  });
