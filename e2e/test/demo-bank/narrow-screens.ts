import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEVICES } from '../../src/browser.ts';
import type { DemoBank } from '../../src/demo-bank.ts';
import { sidewaysOverflow } from '../../src/overflow.ts';
import { openDashboardTab, submitJaneEnrolment, widgetFrame } from '../../src/pages.ts';
import { runJourney, type ScreenAudit } from '../../src/screen-check.ts';
import { enrolActiveUser, enrolLockedUser, JANE, newExternalUserId, SANDBOX_SSN } from '../../src/users.ts';

/** The floor (no screen may scroll sideways from 280 px up), then the narrowest phones still in use. */
const NARROW_WIDTHS = [280, 320] as const;
const PHONE_HEIGHT = 800;
const PHONE = DEVICES.mobile.viewport as { width: number; height: number };

/**
 * Each screen of the widget inside the demo bank's page, at 320 and 280 px: neither the bank's page nor the
 * widget's frame may be wider than the viewport. At 320 px (the last width) the screen also gets an axe audit
 * with best practices, against the bank's own header and main landmarks, and a few screens a picture.
 */
class NarrowScreens {
  readonly overflows: string[] = [];
  private readonly pictured = new Set(['enroll', 'score', 'frozen', 'locked']);

  constructor(
    private readonly page: Page,
    private readonly audit: ScreenAudit,
  ) {}

  async check(screen: string): Promise<void> {
    for (const width of NARROW_WIDTHS) {
      await this.page.setViewportSize({ width, height: PHONE_HEIGHT });
      const { host, frame } = await sidewaysOverflow(this.page);
      if (host > 0) this.overflows.push(`${screen} at ${width} px: the bank's page scrolls ${host} px sideways`);
      if (frame > 0) this.overflows.push(`${screen} at ${width} px: the widget's frame scrolls ${frame} px sideways`);
    }
    // Pictures only of the screens no other journey shows (the cross-origin journey pictures the rest on desktop).
    await this.audit.check(`narrow-${screen}`, { screenshot: this.pictured.has(screen) });
    // The journey goes on at the phone's own size: clicks into the frame right after a screenshot at 320 px
    // (which grows and shrinks the viewport) can miss in mobile emulation.
    await this.page.setViewportSize(PHONE);
  }

  assertAllFit(): void {
    expect.soft(this.overflows, this.overflows.join('\n')).toEqual([]);
    expect.soft(this.audit.failures, this.audit.report()).toEqual([]);
  }
}

export const narrowScreenJourneys = (bank: DemoBank) =>
  describe('on a narrow phone: no sideways scroll, no axe violations', () => {
    it('fits the enrolment form, the verification intro and a question at 280 and 320 px', { timeout: 90_000 }, async () => {
      await runJourney(bank.browser, 'mobile', 'narrow-new', async ({ page, audit }) => {
        const screens = new NarrowScreens(page, audit);
        await page.goto(`${bank.demo.url}/?user=${newExternalUserId('narrow-new')}`);
        const frame = widgetFrame(page);
        await frame.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
        await screens.check('enroll');

        await submitJaneEnrolment(frame);
        await frame.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
        await screens.check('verify-intro');
        await frame.getByRole('button', { name: 'Start verification' }).click();
        await frame.getByText(/^Question 1 of \d+$/).waitFor();
        await screens.check('verify-question');
        screens.assertAllFit();
      });
    });

    it('fits every dashboard tab and the frozen and locked screens at 280 and 320 px', { timeout: 120_000 }, async () => {
      const [active, frozen, locked] = ['narrow-active', 'narrow-frozen', 'narrow-locked'].map(newExternalUserId) as [
        string,
        string,
        string,
      ];
      const [activeUserId] = await Promise.all([
        enrolActiveUser(bank.app, bank.partner.accessToken, active),
        enrolActiveUser(bank.app, bank.partner.accessToken, frozen, { ssn: SANDBOX_SSN.frozen, dateOfBirth: '1979-02-03' }),
        enrolLockedUser(bank.app, bank.partner.accessToken, locked, '1990-07-08'),
      ]);
      // A drop of more than 10 points: the Alerts tab has an alert to show, not only its empty state.
      await bank.sdk.call('sandboxRefreshScore', { params: { userId: activeUserId }, body: { score: JANE.score - 40 } });

      await runJourney(bank.browser, 'mobile', 'narrow-dashboard', async ({ page, audit }) => {
        const screens = new NarrowScreens(page, audit);
        const frame = widgetFrame(page);

        await page.goto(`${bank.demo.url}/?user=${active}`);
        await frame
          .getByText(String(JANE.score - 40))
          .first()
          .waitFor();
        await screens.check('score');
        await openDashboardTab(frame, /factors/i, 'What affects your score');
        await screens.check('factors');
        await openDashboardTab(frame, /history/i, 'Score history');
        await frame.locator('.recharts-surface').first().waitFor();
        await screens.check('history-chart');
        await frame.getByRole('button', { name: 'Show as table' }).click();
        await frame.getByRole('table').waitFor();
        await screens.check('history-table');
        await frame.getByRole('tab', { name: /offers/i }).click();
        await frame.getByRole('button', { name: /apply/i }).first().waitFor();
        await screens.check('offers');
        await openDashboardTab(frame, /alerts/i, 'Alerts');
        await frame
          .getByRole('button', { name: /mark as read/i })
          .first()
          .waitFor();
        await screens.check('alerts');

        await page.goto(`${bank.demo.url}/?user=${frozen}`);
        await frame.getByRole('heading', { name: 'Your credit file is frozen' }).waitFor();
        await screens.check('frozen');

        await page.goto(`${bank.demo.url}/?user=${locked}`);
        await frame.getByRole('heading', { name: 'Identity verification is locked' }).waitFor();
        await screens.check('locked');
        screens.assertAllFit();
      });
    });
  });
