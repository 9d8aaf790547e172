import type { TCreditReport, TCreditReportAccount, TSimulationInput } from '@credit/contract';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEVICES } from '../../src/browser.ts';
import type { DemoBank } from '../../src/demo-bank.ts';
import { sidewaysOverflow } from '../../src/overflow.ts';
import { openDashboardTab, shownScore, widgetFrame } from '../../src/pages.ts';
import { runJourney } from '../../src/screen-check.ts';
import { enrolActiveUser, newExternalUserId } from '../../src/users.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const NARROW = { width: 320, height: 800 };
const PHONE = DEVICES.mobile.viewport as { width: number; height: number };

/** What the widget's strings say in each language, for the steps of the narrow journey. */
const LOCALES = {
  en: {
    reportTab: 'Report',
    reportHeading: 'Credit report',
    paymentHistory: /^Payment history:/,
    simulatorTab: 'What if',
    simulatorHeading: 'What if…',
    run: 'See my estimated score',
    result: 'Your estimated score',
  },
  es: {
    reportTab: 'Informe',
    reportHeading: 'Informe de crédito',
    paymentHistory: /^Historial de pagos:/,
    simulatorTab: 'Simulador',
    simulatorHeading: '¿Qué pasaría si…?',
    run: 'Ver mi puntaje estimado',
    result: 'Su puntaje estimado',
  },
} as const;

/** The Report tab's accounts list: the list under the "Accounts (n)" heading. */
const accountsList = (frame: FrameLocator) =>
  frame
    .getByRole('tabpanel')
    .getByRole('heading', { level: 3, name: /^Accounts \(\d+\)$/ })
    .locator('xpath=following-sibling::ul[1]');

/** An account's card in that list, by its lender (the card's heading). */
const accountCard = (frame: FrameLocator, account: TCreditReportAccount) =>
  accountsList(frame)
    .getByRole('listitem')
    .filter({ has: frame.getByRole('heading', { level: 4, name: account.creditor, exact: true }) });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const reportAndSimulatorJourneys = (bank: DemoBank) =>
  describe('the Report and What-if tabs', () => {
    const openActiveCustomer = async (prefix: string) => {
      const externalUserId = newExternalUserId(prefix);
      const userId = await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
      const [report, { score }] = await Promise.all([
        bank.sdk.call('getCreditReport', { params: { userId } }),
        bank.sdk.call('getCreditScore', { params: { userId } }),
      ]);
      return { externalUserId, userId, report, score };
    };

    /** The demo bank's page for the customer, once the Score tab shows: the tabs are clicked on a settled dashboard. */
    const openDashboard = async (page: Page, externalUserId: string, score: number, locale = 'en') => {
      await page.goto(`${bank.demo.url}/?user=${externalUserId}&locale=${locale}`);
      const frame = widgetFrame(page);
      await shownScore(frame, score).waitFor();
      return frame;
    };

    it("shows every account of the API's report, its utilization and a payment-history grid with month names", {
      timeout: 60_000,
    }, async () => {
      const { externalUserId, report, score } = await openActiveCustomer('report');
      const withHistory = report.accounts.find((account) => account.paymentHistory.length > 0);
      if (!withHistory) throw new Error(`Jane's report has no account with a payment history: ${JSON.stringify(report)}`);

      await runJourney(bank.browser, 'desktop', 'report-tab', async ({ page, audit }) => {
        const frame = await openDashboard(page, externalUserId, score);
        await openDashboardTab(frame, 'Report', 'Credit report');
        const panel = frame.getByRole('tabpanel');

        await panel.getByRole('heading', { level: 3, name: `Accounts (${report.accounts.length})`, exact: true }).waitFor();
        const lenders = await accountsList(frame).getByRole('heading', { level: 4 }).allTextContents();
        expect(lenders, 'one card per account, in the API’s order').toEqual(report.accounts.map((account) => account.creditor));

        // The widget rounds to one decimal ("25.5%"); the API's figure is compared at that precision.
        const utilization = await summaryFigure(frame, 'Credit used');
        expect(Number(utilization.replace(/[%\s]/g, '')), `the summary shows "${utilization}"`).toBe(
          Math.round(report.summary.utilizationPercent * 10) / 10,
        );

        const card = accountCard(frame, withHistory);
        await card.getByText(/^Payment history:/).click();
        const grid = card.getByRole('table', { name: /: payments over the last \d+ months$/ });
        await grid.waitFor();
        // Each month's column is named in full for a screen reader (the short "Jan" shown is hidden from it).
        for (const month of MONTHS) {
          expect(await grid.getByRole('columnheader', { name: month, exact: true }).count(), `the ${month} column`).toBe(1);
        }
        // A graded month has a mark and its meaning in words; months outside the window are empty cells.
        expect(await grid.getByRole('cell').filter({ hasText: /\S/ }).count(), 'graded months').toBe(
          withHistory.paymentHistory.length,
        );

        // No picture: the narrow journey pictures this screen.
        await audit.check('report', { screenshot: false });
        expect.soft(audit.failures, audit.report()).toEqual([]);
      });
    });

    it("shows what the API estimates for paying half a card's balance: the dial's score and a change of 0 or more", {
      timeout: 60_000,
    }, async () => {
      const { externalUserId, userId, report, score } = await openActiveCustomer('what-if');
      const card = openCardWithBalance(report);
      const body: TSimulationInput = {
        actions: [{ type: 'pay_down_balance', accountId: card.accountId, amount: card.balance / 2 }],
      };
      const expected = await bank.sdk.call('simulateCreditScore', { params: { userId }, body });
      expect(expected.change, 'paying down a card cannot lower the score').toBeGreaterThanOrEqual(0);

      await runJourney(bank.browser, 'desktop', 'what-if-tab', async ({ page }) => {
        const frame = await openDashboard(page, externalUserId, score);
        await openDashboardTab(frame, 'What if', 'What if…');
        const panel = frame.getByRole('tabpanel');

        await panel.getByRole('combobox', { name: 'What would you do?' }).selectOption({ label: 'Pay down a balance' });
        const accounts = panel.getByRole('combobox', { name: 'Which account?' });
        const choices = await accounts.locator('option').allTextContents();
        const choice = choices.find((label) => label.startsWith(`${card.creditor} · Credit card · `));
        if (!choice) throw new Error(`no choice for the ${card.creditor} card among ${JSON.stringify(choices)}`);
        await accounts.selectOption({ label: choice });
        await panel.getByRole('spinbutton', { name: 'Amount to pay' }).fill(String(card.balance / 2));

        const [sent] = await Promise.all([
          page.waitForRequest(
            (request) => request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/credit-score/simulations'),
          ),
          panel.getByRole('button', { name: 'See my estimated score' }).click(),
        ]);
        expect(sent.postDataJSON(), 'the widget asked for the same estimate').toEqual(body);

        const result = panel.getByRole('region', { name: 'Your estimated score' });
        await result
          .getByRole('img', {
            name: new RegExp(`^Estimated score gauge from \\d+ to \\d+, showing ${expected.simulatedScore}, `),
          })
          .waitFor();
        const change = expected.change === 0 ? 'No change' : `+${expected.change} ${expected.change === 1 ? 'point' : 'points'}`;
        // The readout beside the dial: the score, its rating, then the change (after an arrow hidden from readers).
        await result
          .getByRole('paragraph')
          .filter({ hasText: new RegExp(`^${expected.simulatedScore}\\b.*${escapeRegExp(change)}$`) })
          .waitFor();
        await result.getByText(new RegExp(`^Your score now: ${expected.currentScore},`)).waitFor();
      });
    });

    it('fits the Report and What-if tabs at 320 px, in English and Spanish, without axe violations', {
      timeout: 120_000,
    }, async () => {
      const { externalUserId, score } = await openActiveCustomer('narrow-report');

      await runJourney(bank.browser, 'mobile', 'narrow-report-what-if', async ({ page, audit }) => {
        const overflows: string[] = [];
        const check = async (screen: string, screenshot: boolean) => {
          await page.setViewportSize(NARROW);
          const { host, frame } = await sidewaysOverflow(page);
          if (host > 0) overflows.push(`${screen}: the bank's page scrolls ${host} px sideways`);
          if (frame > 0) overflows.push(`${screen}: the widget's frame scrolls ${frame} px sideways`);
          await audit.check(`narrow-${screen}`, { screenshot });
          // Back to the phone's own size: a click into the frame right after a 320 px screenshot can miss.
          await page.setViewportSize(PHONE);
        };

        for (const locale of ['en', 'es'] as const) {
          const text = LOCALES[locale];
          const frame = await openDashboard(page, externalUserId, score, locale);
          await openDashboardTab(frame, text.reportTab, text.reportHeading);
          // A payment-history grid open: 13 columns are wider than the phone, so they must scroll inside it.
          await frame.getByRole('tabpanel').getByText(text.paymentHistory).first().click();
          await frame.getByRole('tabpanel').getByRole('table').first().waitFor();
          // One picture, of the longest screen; the others only cost time.
          await check(`report-${locale}`, locale === 'en');

          await openDashboardTab(frame, text.simulatorTab, text.simulatorHeading);
          await frame.getByRole('button', { name: text.run }).click();
          await frame.getByRole('region', { name: text.result }).getByRole('img').first().waitFor();
          await check(`what-if-${locale}`, false);
        }
        expect.soft(overflows, overflows.join('\n')).toEqual([]);
        expect.soft(audit.failures, audit.report()).toEqual([]);
      });
    });
  });

/** A term's value in the Report tab's summary ("Credit used" → "25.5%"). */
const summaryFigure = async (frame: FrameLocator, term: string): Promise<string> =>
  (
    await frame
      .getByRole('tabpanel')
      .getByRole('heading', { level: 3, name: 'Summary', exact: true })
      .locator('xpath=following-sibling::dl[1]')
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${escapeRegExp(term)}$`) })
      .locator('xpath=following-sibling::dd[1]')
      .textContent()
  )?.trim() ?? '';

/** The account the What-if journey pays down: an open card with something owed. */
const openCardWithBalance = (report: TCreditReport): TCreditReportAccount => {
  const card = report.accounts.find(
    (account) => account.type === 'credit_card' && account.status === 'open' && account.balance > 0,
  );
  if (!card) throw new Error(`Jane's report has no open card with a balance: ${JSON.stringify(report.accounts)}`);
  return card;
};
