import type { WidgetDisclosure } from '@credit/contract/widget-protocol';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeClient } from '../../apps/bff/src/modules/clients/service.ts';
import { applyTermsVersion } from '../../apps/bff/src/modules/users/consent.ts';
import { startDispatcher } from '../../apps/bff/src/modules/webhooks/dispatcher.ts';
import { startTestApp } from '../../apps/bff/test/helpers/harness.ts';
import { type Receiver, startReceiver } from '../../apps/bff/test/helpers/webhook-receiver.ts';
import { sharedBrowser } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import {
  agreeToConsent,
  consentCheckbox,
  createWidget,
  type HostEvent,
  hostEvents,
  NetworkLog,
  partnerPageHtml,
  shownScore,
  widgetFrame,
} from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type RunningServer, servePage, type TestApp } from '../src/servers.ts';
import { enrolActiveUser, JANE, newExternalUserId, sandboxAnswers } from '../src/users.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const ENROL_PATH = /^\/v1\/users\/enroll$/;
const SCORE_PATH = /^\/v1\/users\/[^/]+\/credit-score$/;

/**
 * Consent and disclosure in the widget (issue 24), in Chromium against the real API: a partner page on
 * localhost embeds the widget served from 127.0.0.1, webhooks go to a real HTTPS receiver. Its own API (not
 * useDemoBank's): the API must trust the receiver's certificate, and the last journey moves the clock a year.
 */
describe('consent and disclosure in the widget', () => {
  let browser: Browser;
  let app: TestApp;
  let partner: Partner;
  let partnerPage: RunningServer;
  let receiver: Receiver;
  let dispatcher: ReturnType<typeof startDispatcher>;

  beforeAll(async () => {
    assertBuilt();
    receiver = await startReceiver();
    [browser, app] = await Promise.all([sharedBrowser(), startTestApp({ config: { WEBHOOK_CA_FILE: receiver.caFile } })]);
    partner = await createPartner(app, ['http://localhost:*']);
    partnerPage = await servePage('localhost', () => partnerPageHtml(app.url));
    dispatcher = startDispatcher(app.ctx, { poll: false });
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await browser?.close();
    await partnerPage?.close();
    await app?.close();
    await receiver?.close();
  });

  const sdk = () => app.sdk(partner.client);

  /** The partner's page with the widget for `externalUserId`; every message the frame posts is kept in `framePosts`. */
  const openWidget = async (page: Page, externalUserId: string) => {
    const userToken = await app.userToken(await app.currentToken(partner.client), externalUserId);
    await page.goto(partnerPage.url);
    await page.evaluate(() => {
      const posts: unknown[] = [];
      (window as unknown as { framePosts: unknown[] }).framePosts = posts;
      window.addEventListener('message', (event) => posts.push(event.data));
    });
    await createWidget(page, { userToken });
    return widgetFrame(page);
  };
  const framePosts = (page: Page) => page.evaluate(() => (window as unknown as { framePosts: unknown[] }).framePosts);
  const eventsNamed = async (page: Page, name: string) => (await hostEvents(page)).filter((e) => e.name === name);

  describe('the host page learns only what the disclosure setting allows', () => {
    const cases: {
      disclosure: WidgetDisclosure;
      expected: (userId: string, score: number, band: string) => HostEvent['data'];
    }[] = [
      { disclosure: 'none', expected: (userId) => ({ userId, disclosure: 'none' }) },
      { disclosure: 'band', expected: (userId, _score, band) => ({ userId, disclosure: 'band', band }) },
      { disclosure: 'exact', expected: (userId, score, band) => ({ userId, disclosure: 'exact', band, score }) },
    ];

    for (const { disclosure, expected } of cases) {
      it(`${disclosure}`, { timeout: 90_000 }, async () => {
        // The operator sets it (pnpm clients update --widget-disclosure), as another process would.
        await changeClient(app.db, partner.client.id, { widgetDisclosure: disclosure });
        await app.invalidationsArrived();
        const externalUserId = newExternalUserId(`disclose-${disclosure}`);
        const userId = await enrolActiveUser(app, await app.currentToken(partner.client), externalUserId);
        const { score, rating } = await sdk().call('getCreditScore', { params: { userId } });

        await runJourney(browser, 'desktop', `disclosure-${disclosure}`, async ({ page }) => {
          const frame = await openWidget(page, externalUserId);
          await shownScore(frame, score).waitFor();
          await expect.poll(() => eventsNamed(page, 'score_loaded')).toHaveLength(1);
          expect((await eventsNamed(page, 'score_loaded'))[0]?.data).toEqual(expected(userId, score, rating));

          // Refresh score: the new score goes to the host under the same rule.
          await frame.getByRole('button', { name: 'Refresh score' }).click();
          await expect.poll(() => eventsNamed(page, 'score_refreshed')).toHaveLength(1);
          const refreshed = await sdk().call('getCreditScore', { params: { userId } });
          expect((await eventsNamed(page, 'score_refreshed'))[0]?.data).toEqual(
            expected(userId, refreshed.score, refreshed.rating),
          );

          // Not in any field of any message the frame posted to the page, under any name.
          const posted = JSON.stringify(await framePosts(page));
          const numbers = new Set([score, refreshed.score].map(String));
          for (const number of numbers) {
            if (disclosure === 'exact') expect(posted).toContain(`"score":${number}`);
            else expect(posted).not.toMatch(new RegExp(`(?<![0-9])${number}(?![0-9])`));
          }
          if (disclosure === 'none') expect(posted).not.toMatch(/"band"|"rating"/);
        });
      });
    }
  });

  it('a new customer cannot enrol without agreeing; withdraws in the widget; the partner hears consent.withdrawn; agreeing again restarts it', {
    timeout: 120_000,
  }, async () => {
    await changeClient(app.db, partner.client.id, { widgetDisclosure: 'none' });
    await app.invalidationsArrived();
    const { webhookId } = await sdk().call('createWebhook', {
      body: { url: `${receiver.url}/consent`, events: ['consent.withdrawn'], secret: 'whsec_consent_journey_0123456789' },
    });
    expect(webhookId).toBeTruthy();
    const externalUserId = newExternalUserId('consent');

    // A phone: the instruction, its checkbox and the buttons must work at 390 px.
    await runJourney(browser, 'mobile', 'consent-withdraw', async ({ page, audit }) => {
      const network = new NetworkLog(page);
      let frame: FrameLocator = await openWidget(page, externalUserId);

      // The instruction in plain language, with its terms version, on the enrolment form.
      await frame.getByRole('heading', { name: 'Your permission to check your credit' }).waitFor();
      for (const words of [
        'Your credit report and credit score.',
        /Equifax, Experian or TransUnion/,
        /Credit API, which runs this service, and .+, which offers it to you/,
        /about every 30 days/,
        /For 1 year, until/,
        /Stop credit monitoring/,
        'Consent terms version 2026-11-25',
      ]) {
        await frame.getByText(words).first().waitFor();
      }
      expect(await consentCheckbox(frame).isChecked(), 'never pre-ticked').toBe(false);

      // Everything filled in but the checkbox: the form says why and sends nothing.
      await frame.getByLabel('Last 4 digits of your Social Security number').fill(JANE.ssn);
      await frame.getByLabel('Date of birth').fill(JANE.dateOfBirth);
      await frame.getByLabel('Street address').fill(JANE.address.street);
      await frame.getByLabel('City', { exact: true }).fill(JANE.address.city);
      await frame.getByLabel('State', { exact: true }).selectOption(JANE.address.state);
      await frame.getByLabel('ZIP code').fill(JANE.address.zipCode);
      await frame.getByRole('button', { name: 'Continue' }).click();
      await frame.getByText('Check the box to give your permission.').first().waitFor();
      await expect.poll(() => consentCheckbox(frame).evaluate((box) => box === document.activeElement)).toBe(true);
      expect(network.matching('POST', ENROL_PATH), 'no enrolment without consent').toEqual([]);
      await audit.check('consent-step-required');

      await agreeToConsent(frame);
      await frame.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => eventsNamed(page, 'consent_given')).toHaveLength(1);
      const [given] = await eventsNamed(page, 'consent_given');
      const userId = String(given?.data?.userId);
      expect(given?.data).toEqual({ userId, termsVersion: '2026-11-25' });

      // What the API recorded: given in the widget, under the version shown, with where and in which browser.
      const recorded = await sdk().call('getConsent', { params: { userId } });
      expect(recorded.current).toMatchObject({
        status: 'active',
        method: 'widget',
        termsVersion: '2026-11-25',
        purpose: 'credit_monitoring',
        ipAddress: '127.0.0.1',
      });
      expect(recorded.current?.userAgent).toMatch(/Chrom/);

      // Identity verification (the partner's back office answers it here), then the next visit shows the score.
      await frame
        .getByText(/verify|identity/i)
        .first()
        .waitFor();
      const { sessionId } = await sdk().call('getVerificationQuestions', { params: { userId } });
      const answers = await sandboxAnswers(app, await app.currentToken(partner.client), userId, sessionId);
      await sdk().call('submitVerificationAnswers', { params: { userId }, body: { sessionId, answers } });
      frame = await openWidget(page, externalUserId);
      const { score } = await sdk().call('getCreditScore', { params: { userId } });
      await shownScore(frame, score).waitFor();

      // Withdrawing: one press to the screen, one button, and the next screen confirms it.
      await frame.getByRole('button', { name: 'Stop credit monitoring' }).click();
      await frame.getByRole('heading', { name: 'Stop credit monitoring' }).waitFor();
      await audit.check('consent-withdraw');
      await frame.getByRole('button', { name: 'Withdraw my permission' }).click();
      await frame.getByRole('heading', { name: 'Credit monitoring is stopped' }).waitFor();
      await frame.getByText(/^Done: you withdrew your permission on .+\. We no longer get your credit report/).waitFor();
      expect(await shownScore(frame, score).count(), 'no credit data once withdrawn').toBe(0);
      await audit.check('consent-withdrawn');
      await expect.poll(() => eventsNamed(page, 'consent_withdrawn')).toEqual([{ name: 'consent_withdrawn', data: { userId } }]);

      // Monitoring stopped at once; nothing more is pulled.
      const user = await sdk().call('getUser', { params: { userId } });
      expect(user.monitoring).toMatchObject({ status: 'paused', pausedReason: 'consent_withdrawn' });
      await expect(sdk().call('getCreditScore', { params: { userId } })).rejects.toMatchObject({ code: 'CONSENT_REQUIRED' });

      // The partner's webhook hears it.
      await expect
        .poll(
          async () => {
            await dispatcher.runOnce();
            return receiver.received.filter((d) => d.body.type === 'consent.withdrawn' && d.body.data.userId === userId);
          },
          { timeout: 15_000 },
        )
        .toHaveLength(1);

      // The next visit asks again before any credit data, and says how to turn it back on.
      const scoreCallsBefore = network.matching('GET', SCORE_PATH).length;
      frame = await openWidget(page, externalUserId);
      await frame.getByRole('heading', { name: 'Credit monitoring is stopped' }).waitFor();
      await frame.getByText(/^You withdrew your permission on /).waitFor();
      expect(network.matching('GET', SCORE_PATH).length, 'no score asked for without consent').toBe(scoreCallsBefore);
      await agreeToConsent(frame);
      await frame.getByRole('button', { name: 'Turn credit monitoring back on' }).click();
      await shownScore(frame, score).waitFor();
      const again = await sdk().call('getConsent', { params: { userId } });
      expect(again.current).toMatchObject({ status: 'active', method: 'widget' });
      // Both records kept (the test clock stands still, so they share a time: compared as a set).
      expect(again.history.map((record) => record.status).sort()).toEqual(['active', 'withdrawn']);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('asks again on the next visit once the consent has run out, before showing any credit data', {
    timeout: 90_000,
  }, async () => {
    const externalUserId = newExternalUserId('consent-expired');
    const userId = await enrolActiveUser(app, await app.currentToken(partner.client), externalUserId);
    // The sandbox's default record (an enrolment without consent) never runs out; a consent the partner attests runs
    // a year, like any supplied one: a year and a day later it is over.
    await sdk().call('grantConsent', {
      params: { userId },
      body: {
        termsVersion: app.ctx.config.CONSENT_TERMS_VERSION,
        method: 'partner_attested',
        acceptedAt: app.clock.now().toISOString(),
      },
    });
    app.clock.advance(366 * DAY_MS);

    await runJourney(browser, 'desktop', 'consent-expired', async ({ page, audit }) => {
      const network = new NetworkLog(page);
      const frame = await openWidget(page, externalUserId);
      await frame.getByRole('heading', { name: 'Your permission has ended' }).waitFor();
      await frame.getByText(/^The permission you gave on .+ ended on .+\./).waitFor();
      expect(network.matching('GET', SCORE_PATH), 'nothing pulled before the customer agrees').toEqual([]);
      await audit.check('consent-expired');

      await frame.getByRole('button', { name: 'Agree and continue' }).click();
      await frame.getByText('Check the box to give your permission.').first().waitFor();
      await agreeToConsent(frame);
      await frame.getByRole('button', { name: 'Agree and continue' }).click();
      // The widget records the consent, then asks for the score; read it once the consent is in.
      await expect.poll(async () => (await sdk().call('getConsent', { params: { userId } })).reconsentRequired).toBe(false);
      const { score } = await sdk().call('getCreditScore', { params: { userId } });
      await shownScore(frame, score).waitFor();
      const state = await sdk().call('getConsent', { params: { userId } });
      expect(state.current).toMatchObject({ status: 'active', method: 'widget' });
      expect(state.reconsentRequired).toBe(false);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});

/**
 * New terms that require re-consent: an instance starts with a new CONSENT_TERMS_VERSION and
 * CONSENT_TERMS_REQUIRE_RECONSENT=true, so consents under the old version stop counting; the widget asks on the
 * next visit, showing the new version, before any credit data.
 */
describe('new consent terms in the widget', () => {
  const NEW_TERMS = '2027-01-15';
  let browser: Browser | undefined;
  let before: TestApp | undefined;
  let after: TestApp | undefined;
  let partnerPage: RunningServer | undefined;

  afterAll(async () => {
    await browser?.close();
    await partnerPage?.close();
    await before?.close();
    // The database outlived the first instance; the second closes it.
    await after?.close();
  });

  it('asks the customer to agree to the new version before showing the score', { timeout: 90_000 }, async () => {
    assertBuilt();
    browser = await sharedBrowser();
    // Yesterday's instance: the customer enrolled (and consented) under the old terms.
    before = await startTestApp({ keepDb: true });
    const { db } = before;
    const partner = await createPartner(before, ['http://localhost:*']);
    const externalUserId = newExternalUserId('new-terms');
    const userId = await enrolActiveUser(before, partner.accessToken, externalUserId);
    await before.close();
    before = undefined;
    // Today's: the same database with new terms published; starting applies them, as the start command does.
    after = await startTestApp({
      db,
      config: { CONSENT_TERMS_VERSION: NEW_TERMS, CONSENT_TERMS_REQUIRE_RECONSENT: 'true' },
    });
    await applyTermsVersion(after.ctx);
    const api = after;
    const sdk = api.sdk(partner.client);
    expect((await sdk.call('getConsent', { params: { userId } })).reconsentRequired).toBe(true);
    partnerPage = await servePage('localhost', () => partnerPageHtml(api.url));
    const pageUrl = partnerPage.url;

    await runJourney(browser, 'mobile', 'consent-new-terms', async ({ page, audit }) => {
      const network = new NetworkLog(page);
      const userToken = await api.userToken(await api.currentToken(partner.client), externalUserId);
      await page.goto(pageUrl);
      await createWidget(page, { userToken });
      const frame = widgetFrame(page);
      await frame.getByRole('heading', { name: 'Please review the updated terms' }).waitFor();
      await frame
        .getByText(`The terms for checking your credit have changed (version ${NEW_TERMS}).`, { exact: false })
        .waitFor();
      await frame.getByText(`Consent terms version ${NEW_TERMS}`).waitFor();
      expect(network.matching('GET', SCORE_PATH), 'nothing pulled before the customer agrees').toEqual([]);
      await audit.check('consent-new-terms');

      await agreeToConsent(frame);
      await frame.getByRole('button', { name: 'Agree and continue' }).click();
      // The widget records the consent, then asks for the score; read it once the consent is in.
      await expect.poll(async () => (await sdk.call('getConsent', { params: { userId } })).reconsentRequired).toBe(false);
      const { score } = await sdk.call('getCreditScore', { params: { userId } });
      await shownScore(frame, score).waitFor();
      expect(await hostEvents(page)).toContainEqual({ name: 'consent_given', data: { userId, termsVersion: NEW_TERMS } });
      const state = await sdk.call('getConsent', { params: { userId } });
      expect(state.current).toMatchObject({ status: 'active', method: 'widget', termsVersion: NEW_TERMS });
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
