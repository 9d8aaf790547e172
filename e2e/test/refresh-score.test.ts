import type { FrameLocator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { hostEvents, shownScore, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, newExternalUserId } from '../src/users.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const REFRESH_PATH = /\/v1\/users\/[^/]+\/credit-score\/refresh$/;

/** The time as the widget writes it in English ("Mar 5, 2027, 3:04 PM"), formatted in the frame's own time zone. */
const shownTime = (frame: FrameLocator, iso: string) =>
  frame
    .locator('body')
    .evaluate(
      (_, when) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(when)),
      iso,
    );

/** Own API and clock: the journey moves the clock by weeks, which would expire every other suite's tokens. */
describe('the customer refreshes their score in the widget', () => {
  const bank = useDemoBank();

  it('presses "Refresh score", sees the new score and when the next refresh is allowed', { timeout: 90_000 }, async () => {
    const pressing = newExternalUserId('refresh-now');
    const throttled = newExternalUserId('refresh-429');
    const accessToken = await bank.app.token(bank.partner.client);
    const pressingUserId = await enrolActiveUser(bank.app, accessToken, pressing);
    const throttledUserId = await enrolActiveUser(bank.app, accessToken, throttled);
    // Weeks later the bureau has a newer file to pull (and the demo bank mints tokens at the moved clock).
    bank.app.clock.advance(40 * DAY_MS);
    const scoreOf = async (userId: string) => (await bank.sdk.call('getCreditScore', { params: { userId } })).score;
    const before = await scoreOf(pressingUserId);

    await runJourney(bank.browser, 'desktop', 'refresh-score', async ({ page, audit }) => {
      await page.goto(`${bank.demo.url}/?user=${pressing}`);
      const frame = widgetFrame(page);
      await shownScore(frame, before).waitFor();
      const button = frame.getByRole('button', { name: 'Refresh score' });
      expect(await button.isEnabled(), 'allowed before the first refresh').toBe(true);
      expect(await frame.getByText(/Next refresh available/).count()).toBe(0);

      const answered = page.waitForResponse((response) => REFRESH_PATH.test(new URL(response.url()).pathname));
      await button.click();
      expect((await answered).status()).toBe(200);
      const score = await scoreOf(pressingUserId);
      const { monitoring } = await bank.sdk.call('getUser', { params: { userId: pressingUserId } });
      expect(monitoring.refreshAvailableAt, 'the API allows the next one a day later').toBe(
        new Date(bank.app.clock.now().getTime() + DAY_MS).toISOString(),
      );

      await frame.getByRole('tabpanel').getByText(`Score refreshed: ${score}, was ${before}.`).waitFor();
      await shownScore(frame, score).waitFor();
      await frame.getByText(`Next refresh available ${await shownTime(frame, monitoring.refreshAvailableAt ?? '')}.`).waitFor();
      expect(await button.isDisabled(), 'one refresh a day').toBe(true);
      await audit.check('score-refreshed');
      // A reload shows the same limit, read from the user's monitoring record.
      await page.reload();
      await shownScore(widgetFrame(page), score).waitFor();
      await widgetFrame(page)
        .getByText(/Next refresh available/)
        .waitFor();
      expect(await widgetFrame(page).getByRole('button', { name: 'Refresh score' }).isDisabled()).toBe(true);
      expect((await hostEvents(page)).filter((event) => event.name === 'error')).toEqual([]);
    });

    await runJourney(bank.browser, 'desktop', 'refresh-score-429', async ({ page, audit }) => {
      await page.goto(`${bank.demo.url}/?user=${throttled}`);
      const frame = widgetFrame(page);
      await shownScore(frame, await scoreOf(throttledUserId)).waitFor();
      const button = frame.getByRole('button', { name: 'Refresh score' });
      // Refreshed elsewhere (the bank's back office) while this page was open: the widget still offers it.
      await bank.sdk.call('refreshCreditScore', { params: { userId: throttledUserId } });
      expect(await button.isEnabled()).toBe(true);

      const answered = page.waitForResponse((response) => REFRESH_PATH.test(new URL(response.url()).pathname));
      await button.click();
      expect((await answered).status()).toBe(429);
      await frame.getByText(/Next refresh available/).waitFor();
      await expect.poll(() => button.isDisabled(), { message: 'disabled after the 429' }).toBe(true);
      expect(await frame.getByRole('alert').count(), 'a limit is not shown as a failure').toBe(0);
      await audit.check('score-refresh-limited');
    });
  });
});
