import { envelope, ZVerificationSession } from '@credit/contract';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { hostEventNames, hostEvents, NetworkLog, submitJaneEnrolment, widgetFrame } from '../src/pages.ts';
import { runJourney, type ScreenAudit } from '../src/screen-check.ts';
import { findUserId, newExternalUserId, sandboxAnswers } from '../src/users.ts';

interface QuestionSet {
  sessionId: string;
  questions: { questionId: string; text: string; options: { id: string; text: string }[] }[];
}

describe('cross-origin journey on the demo bank', () => {
  const bank = useDemoBank();

  /** Answers each question the wizard shows with the sandbox's right answer, step by step. */
  const answerQuestions = async (frame: FrameLocator, set: QuestionSet, userId: string, audit: ScreenAudit) => {
    const key = await sandboxAnswers(bank.app, bank.partner.accessToken, userId, set.sessionId);
    for (let step = 1; step <= set.questions.length; step += 1) {
      await frame.getByText(`Question ${step} of ${set.questions.length}`).waitFor();
      const shown = await Promise.all(set.questions.map((q) => frame.getByText(q.text, { exact: true }).isVisible()));
      const question = set.questions[shown.indexOf(true)];
      if (!question) throw new Error(`step ${step}: none of the session's questions is visible`);
      const answerId = key.find((k) => k.questionId === question.questionId)?.answerId;
      const option = question.options.find((o) => o.id === answerId);
      if (!option) throw new Error(`no right answer for ${question.questionId}`);
      if (step === 1) await audit.check('verify-question');
      await frame.getByRole('radio', { name: option.text, exact: true }).check();
      const last = step === set.questions.length;
      await frame.getByRole('button', { name: last ? 'Submit answers' : 'Next question' }).click();
    }
  };

  const waitForHostEvent = (page: Page, name: string) =>
    expect.poll(() => hostEventNames(page), { timeout: 15_000, message: `host event ${name}` }).toContain(name);

  it('enrols, verifies, shows the score, records an offer click, and marks a new alert read', { timeout: 120_000 }, async () => {
    const externalUserId = newExternalUserId('journey');
    await runJourney(bank.browser, 'desktop', 'cross-origin', async ({ page, context, audit }) => {
      const network = new NetworkLog(page);
      await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
      const frame = widgetFrame(page);

      // Enrolment: the token's user has no credit profile yet.
      await frame.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
      await audit.check('enroll');
      await submitJaneEnrolment(frame);

      // KBA with the sandbox's answer key for the session the widget opened.
      await frame.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      await audit.check('verify-intro');
      const questionsLoaded = page.waitForResponse(
        (r) => r.request().method() === 'GET' && /\/verification\/questions$/.test(new URL(r.url()).pathname) && r.ok(),
      );
      await frame.getByRole('button', { name: 'Start verification' }).click();
      // What the widget received, read through the contract's schema of the response.
      const questionSet = envelope(ZVerificationSession).parse(await (await questionsLoaded).json()).data;
      await waitForHostEvent(page, 'enrolled');
      const userId = await findUserId(bank.app, bank.partner.accessToken, externalUserId);
      if (!userId) throw new Error('the widget said enrolled but the API lists no such user');
      await answerQuestions(frame, questionSet, userId, audit);
      await waitForHostEvent(page, 'verified');

      // Dashboard: the score the API holds for this file, with its provenance.
      const score = await bank.sdk.call('getCreditScore', { params: { userId } });
      await frame.getByText(String(score.score)).first().waitFor();
      await expect
        .poll(() =>
          frame
            .getByText(/VantageScore 3\.0/)
            .first()
            .isVisible(),
        )
        .toBe(true);
      await expect.poll(() => frame.getByText(new RegExp(score.bureau, 'i')).first().isVisible()).toBe(true);
      await audit.check('dashboard-score');

      await frame.getByRole('tab', { name: 'Factors' }).click();
      await frame.getByRole('heading', { name: 'What affects your score' }).waitFor();
      await audit.check('dashboard-factors');

      await frame.getByRole('tab', { name: 'History' }).click();
      await frame.getByRole('heading', { name: 'Score history' }).waitFor();
      // The chart is a lazy chunk drawn out of sight of assistive technology; wait for it only for the picture.
      await frame.locator('.recharts-surface').first().waitFor();
      await audit.check('dashboard-history');
      await frame.getByRole('button', { name: 'Show as table' }).click();
      await frame.getByRole('table').waitFor();
      await audit.check('dashboard-history-table');

      // Offers: Apply records the click through the API before the application opens in a new window.
      await frame.getByRole('tab', { name: /offers/i }).click();
      const apply = frame.getByRole('button', { name: /apply/i }).first();
      await apply.waitFor();
      await audit.check('dashboard-offers');
      const [popup] = await Promise.all([context.waitForEvent('page'), apply.click()]);
      await waitForHostEvent(page, 'offer_clicked');
      const clicked = (await hostEvents(page)).find((e) => e.name === 'offer_clicked')?.data as {
        offerId: string;
        clickId: string;
        url: string;
      };
      // The sandbox's application page, served by the API (demo-bank/first-visit.ts checks it in detail).
      await popup.waitForURL(clicked.url);
      await popup.getByRole('heading').first().waitFor();
      await popup.close();
      // The sandbox credits a conversion to the user's latest click: 404 would mean the API never saw one.
      const conversion = await bank.sdk.call('sandboxConvertOffer', { params: { userId, offerId: clicked.offerId } });
      expect(conversion.clickId).toBe(clicked.clickId);
      await page.locator('#event-log li', { hasText: 'offer_clicked' }).waitFor();

      // A score move of more than 10 points creates a score_change alert.
      await bank.sdk.call('sandboxRefreshScore', { params: { userId }, body: { score: score.score - 40 } });
      const alerts = await bank.sdk.call('listAlerts', { params: { userId }, query: { status: 'unread' } });
      const alert = alerts.data[0];
      if (!alert) throw new Error('the refresh created no alert');

      await frame.getByRole('tab', { name: /alerts/i }).click();
      await frame.getByText(alert.title).first().waitFor();
      await audit.check('dashboard-alerts');
      await frame
        .getByRole('button', { name: /mark as read/i })
        .first()
        .click();
      await waitForHostEvent(page, 'alert_read');
      const readAlertIds = async () =>
        (await bank.sdk.call('listAlerts', { params: { userId }, query: { status: 'read' } })).data.map((a) => a.alertId);
      await expect.poll(readAlertIds).toContain(alert.alertId);
      await audit.check('dashboard-alerts-read');

      expect(network.matching('POST', /^\/widget\/session$/).length, 'session exchanges').toBeGreaterThanOrEqual(1);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
