import { randomUUID } from 'node:crypto';
import type { FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClockAdvances } from '../../apps/bff/src/modules/clocks/service.ts';
import { startMonitoring } from '../../apps/bff/src/modules/monitoring/scheduler.ts';
import { demoPersona } from '../../apps/demo/src/personas.ts';
import { useDemoBank } from '../src/demo-bank.ts';
import { agreeToConsent, hostEvents, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { findUserId, SANDBOX_SSN } from '../src/users.ts';

/**
 * A demo customer whose own identity (derived from the id, see personas.ts) has these SSN last 4, `1001` for a
 * year of monitoring that surely raises alerts. About one id in 10,000 has it: a few milliseconds of hashing.
 */
const customerWithStory = (ssnLast4: string) => {
  for (;;) {
    const id = `clock-${randomUUID().slice(0, 12)}`;
    if (demoPersona(id).ssnLast4 === ssnLast4) return id;
  }
};

/** Enrols in the widget with the identity the bank's page lists for this customer, as a person would copy it. */
const enrolAsShown = async (page: Page, frame: FrameLocator) => {
  const field = async (name: string) =>
    (
      await page
        .locator('#customer-identity tr', { has: page.getByRole('rowheader', { name }) })
        .locator('td')
        .textContent()
    )?.trim() ?? '';
  await frame.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
  await frame.getByLabel('Last 4 digits of your Social Security number').fill(await field('SSN (last 4)'));
  await frame.getByLabel('Date of birth').fill(await field('Date of birth'));
  await frame.getByLabel('Street address').fill(await field('Street'));
  await frame.getByLabel('City', { exact: true }).fill(await field('City'));
  await frame.getByLabel('State', { exact: true }).selectOption(await field('State'));
  await frame.getByLabel('ZIP code').fill(await field('ZIP'));
  await agreeToConsent(frame);
  await frame.getByRole('button', { name: 'Continue' }).click();
};

/** Verifies in the widget with the answers the bank's "Show answers" gives, in words. */
const verifyWithShownAnswers = async (page: Page, frame: FrameLocator) => {
  await frame.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
  await page.getByRole('button', { name: 'Show answers' }).click();
  const answerItems = page.locator('#sandbox-status li');
  await answerItems.first().waitFor();
  const answers = (await answerItems.allInnerTexts()).map((text) => {
    const [question = '', answer = ''] = text.split(' → ');
    return { question: question.trim(), answer: answer.trim() };
  });
  await frame.getByRole('button', { name: 'Start verification' }).click();
  for (let step = 1; step <= answers.length; step += 1) {
    await frame.getByText(`Question ${step} of ${answers.length}`).waitFor();
    const shown = await Promise.all(answers.map((a) => frame.getByText(a.question, { exact: true }).isVisible()));
    const right = answers[shown.indexOf(true)];
    if (!right) throw new Error(`step ${step}: none of the shown answers' questions is on screen`);
    await frame.getByRole('radio', { name: right.answer, exact: true }).check();
    await frame.getByRole('button', { name: step === answers.length ? 'Submit answers' : 'Next question' }).click();
  }
};

/** The history table's dates, newest first, as the widget writes them. */
const historyDates = (frame: FrameLocator) =>
  frame.getByRole('tabpanel').getByRole('table').locator('tbody th[scope="row"]').allInnerTexts();

/** The alerts tab's "Received …" times, as the machine-readable `datetime` the widget took from the API. */
const receivedTimes = (frame: FrameLocator) =>
  frame
    .getByRole('tabpanel')
    .locator('time[datetime]')
    .evaluateAll((times) => times.map((time) => time.getAttribute('datetime') ?? ''));

/**
 * Own API, with the worker's monitoring and clock advances running in it: the API's start command runs the worker
 * beside the demo (the first pull right after verification, the advances), the test harness does not.
 */
describe('the demo customer moves a year on with the sandbox clock', () => {
  const bank = useDemoBank();
  const workers: { stop(): Promise<void> }[] = [];
  beforeAll(() => {
    workers.push(startMonitoring(bank.app.ctx), startClockAdvances(bank.app.ctx));
  });
  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
  });

  it('enrols, verifies, presses "Advance one year" and sees a point for each month its consent covers, and the new alerts', {
    timeout: 120_000,
  }, async () => {
    // Sandbox story 1001: every alert type within any twelve monthly refreshes (docs/partner/credit-data.md).
    const customer = customerWithStory(SANDBOX_SSN.everyAlertStory);
    await runJourney(bank.browser, 'desktop', 'clock-advance', async ({ page, audit }) => {
      await page.goto(`${bank.demo.url}/?user=${customer}`);
      const frame = widgetFrame(page);
      const status = page.locator('#sandbox-status');

      // Before there is anyone to move in time, the buttons say what to do first.
      await frame.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
      await page.getByRole('button', { name: 'Advance one year' }).click();
      await status.getByText(/^Enrol in the widget first/).waitFor();

      await enrolAsShown(page, frame);
      await frame.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      await page.getByRole('button', { name: 'Advance one month' }).click();
      await status.getByText(/^Verify your identity in the widget first/).waitFor();

      await verifyWithShownAnswers(page, frame);
      const userId = await findUserId(bank.app, bank.partner.accessToken, customer);
      if (!userId) throw new Error('the widget verified a customer the API does not list');
      // The first pull, right after verification (its alerts are not the year's).
      const firstPull = async () => (await bank.sdk.call('getUser', { params: { userId } })).monitoring.lastRefreshedAt;
      await expect.poll(firstPull, { message: 'the first monitoring pull', timeout: 15_000 }).not.toBeNull();

      // The Score tab says when the file on record was pulled and when the next pull is due, as the API does.
      const { monitoring } = await bank.sdk.call('getUser', { params: { userId } });
      const day = (iso: string | null) =>
        frame
          .locator('body')
          .evaluate((_, date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(date)), iso ?? '');
      const updated = `Updated ${await day(monitoring.lastRefreshedAt)}. Next update ${await day(monitoring.nextRefreshAt)}.`;
      await expect.poll(() => frame.getByTestId('score-updated').textContent(), { message: 'the update line' }).toBe(updated);

      // The starting point, as the widget shows it: the 24-month history as a table, and the alerts.
      await frame.getByRole('tab', { name: 'History' }).click();
      await frame.getByRole('heading', { name: 'Score history' }).waitFor();
      await frame.getByRole('button', { name: '24 months' }).click();
      await frame.getByRole('button', { name: 'Show as table' }).click();
      await frame.getByRole('tabpanel').getByRole('table').waitFor();
      await expect
        .poll(async () => (await historyDates(frame)).length, { message: 'the first pull’s history' })
        .toBeGreaterThan(12);
      const before = await historyDates(frame);
      const newestBefore = before[0] as string;
      const scoreBefore = await bank.sdk.call('getCreditScore', { params: { userId } });
      const alertsBefore = await bank.sdk.call('listAlerts', { params: { userId }, query: { limit: 100 } });

      await page.getByRole('button', { name: 'Advance one year' }).click();
      await status.getByText(/^One year later/).waitFor({ timeout: 60_000 });
      const clocks = await bank.sdk.call('listSandboxClocks', { query: { limit: 100 } });
      const clock = clocks.data.find((c) => c.name === `Maple Bank demo: ${customer}`);
      expect(clock, 'a clock of this customer’s own').toMatchObject({ status: 'ready', userCount: 1 });

      // The monthly refreshes the year's consent covers (the first pull and eleven more): the history gains eleven months
      // above the old newest one's, one row each. (That month's row may now show a later day of the month: a change on
      // the file between periods is pulled on its day, and a month shows its last.) A change in the consent year's last
      // days falls in the month after the last covered period: pulled on its day too, it adds a twelfth month.
      const history = await bank.sdk.call('listCreditScoreHistory', { params: { userId }, query: { months: 24, limit: 100 } });
      const monthKey = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth();
      const oldMonth = monthKey(new Date(`${scoreBefore.scoreDate.slice(0, 10)}T00:00:00Z`));
      const newerMonths = history.data.filter((point) => monthKey(new Date(`${point.date}T00:00:00Z`)) > oldMonth).length;
      const consentYearEnd = Date.parse(scoreBefore.scoreDate) + 366 * 86_400_000;
      if (newerMonths === 12) expect(Date.parse(history.data[0]?.date ?? '')).toBeLessThan(consentYearEnd);
      else expect(newerMonths, 'months newer than the old newest').toBe(11);
      // The table, still on screen (no reload), shows the same.
      const monthOf = (shown: string) => shown.replace(/ \d{1,2},/, '');
      await expect
        .poll(async () => (await historyDates(frame)).map(monthOf).indexOf(monthOf(newestBefore)), {
          message: 'rows newer than the old newest month',
        })
        .toBe(newerMonths);
      const after = await historyDates(frame);
      expect(history.data).toHaveLength(after.length);
      // Clock dates: the newest row is the API's newest point, a year on from the real day.
      const newest = history.data[0];
      if (!newest) throw new Error('no history');
      expect(Date.parse(newest.date) - Date.now()).toBeGreaterThan(300 * 86_400_000);
      expect(after[0]).toBe(
        await frame
          .locator('body')
          .evaluate((_, date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(date)), newest.date),
      );
      await audit.check('clock-advanced-history');

      // The new alerts, each on the Alerts tab with the clock's date of its arrival.
      const alertsAfter = await bank.sdk.call('listAlerts', { params: { userId }, query: { limit: 100 } });
      const known = new Set(alertsBefore.data.map((alert) => alert.alertId));
      const fresh = alertsAfter.data.filter((alert) => !known.has(alert.alertId));
      expect(new Set(fresh.map((alert) => alert.type)).size, 'of several types').toBeGreaterThan(3);
      await frame.getByRole('tab', { name: /alerts/i }).click();
      await frame.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
      await expect
        .poll(() => receivedTimes(frame), { message: 'the new alerts on the tab' })
        .toEqual(expect.arrayContaining(fresh.map((alert) => alert.createdAt)));
      for (const alert of fresh) await frame.getByText(alert.title).first().waitFor();
      expect(Math.min(...fresh.map((alert) => Date.parse(alert.createdAt)))).toBeGreaterThan(Date.now());

      // The score tab shows the score the year ended with.
      const scoreAfter = await bank.sdk.call('getCreditScore', { params: { userId } });
      expect(Date.parse(scoreAfter.scoreDate)).toBeGreaterThan(Date.parse(scoreBefore.scoreDate));
      await frame.getByRole('tab', { name: 'Score' }).click();
      await frame.getByRole('tabpanel').getByText(String(scoreAfter.score), { exact: true }).first().waitFor();
      expect((await hostEvents(page)).filter((event) => event.name === 'error')).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
