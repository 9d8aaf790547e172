import { CONSOLE_API_PREFIX, createOffer, type TAudiencePreviewInput } from '@credit/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { openDashboardTab, shownScore, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, newExternalUserId } from '../src/users.ts';
import { keepForGuide } from './console-screenshots.ts';

const OFFER_NAME = 'Console Spring Card';
const TIER: TAudiencePreviewInput['tiers'][number] = { minScore: 300, maxScore: 850, apr: 14.25, creditLimit: null };

/** What the page says the count is, once it has settled on a number. */
const shownCount = (page: Page) => page.getByTestId('qualifying-count').textContent();
const countSentence = (n: number) =>
  `${new Intl.NumberFormat('en-US').format(n)} ${n === 1 ? 'customer qualifies' : 'customers qualify'} today.`;

describe('offers in the bank’s console, in Chromium', () => {
  const bank = useDemoBank();

  it('an editor writes an offer, sees who qualifies as the rules change, publishes it, and the customer gets it in the widget', {
    timeout: 120_000,
  }, async () => {
    const { app, sdk, demo } = bank;
    const externalUserId = newExternalUserId('console-offer');
    const userId = await enrolActiveUser(app, bank.partner.accessToken, externalUserId);
    // The first score pulls the file on record, which the rules and the count read.
    const { score } = await sdk.call('getCreditScore', { params: { userId } });
    const preview = async (rules: TAudiencePreviewInput['rules']) =>
      (await sdk.call('previewOfferAudience', { body: { type: 'credit_card', tiers: [TIER], rules } })).qualifying;
    const everyone = await preview({});
    const above = await preview({ minScore: score + 1 });
    expect(everyone).toBeGreaterThan(above);

    const link = await sdk.call('createConsoleLink', {
      body: { staff: { id: 'emp-offers', email: 'offers@bank.example' }, role: 'editor' },
    });
    await runJourney(bank.browser, 'desktop', 'console-offer-editor', async ({ page, audit, problems }) => {
      await page.goto(link.url);
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Offers' }).click();
      await page.getByRole('table', { name: /Your offers/ }).waitFor();
      await audit.check('console-offers');
      await keepForGuide(audit.screenshots, 'offers');

      await page.getByRole('link', { name: 'New offer' }).click();
      await page.getByRole('heading', { level: 2, name: 'New offer' }).waitFor();
      expect(new URL(page.url()).searchParams.get('offer')).toBe('new');
      const form = page.getByRole('form', { name: 'New offer' });
      await form.getByLabel('Name', { exact: true }).fill(OFFER_NAME);
      await form.getByLabel('Description').fill('A card written in the console.');
      await form.getByLabel(/Application URL/).fill('https://apply.bank.example/spring?ref={clickId}');
      await form.getByLabel('From score').fill(String(TIER.minScore));
      await form.getByLabel('To score').fill(String(TIER.maxScore));
      await form.getByLabel('APR (%)').fill(String(TIER.apr));
      await expect.poll(() => shownCount(page), { timeout: 10_000 }).toBe(countSentence(everyone));

      // A rule the customer misses: the count drops to the API's own count for it; back to their score, they are in.
      await form.getByLabel('Lowest score').fill(String(score + 1));
      await expect.poll(() => shownCount(page), { timeout: 10_000 }).toBe(countSentence(above));
      await form.getByLabel('Lowest score').fill(String(score));
      const atScore = await preview({ minScore: score });
      expect(atScore).toBeGreaterThan(above);
      await expect.poll(() => shownCount(page), { timeout: 10_000 }).toBe(countSentence(atScore));
      await audit.check('console-offer-new');
      await keepForGuide(audit.screenshots, 'offer-editor');

      await form.getByLabel('Publish').selectOption('active');
      await form.getByRole('button', { name: 'Create offer' }).click();
      await page.getByRole('heading', { level: 2, name: OFFER_NAME }).waitFor();
      const offerId = new URL(page.url()).searchParams.get('offer') ?? '';
      expect(offerId).toMatch(/^off_/);
      const saved = await sdk.call('getOffer', { params: { offerId } });
      expect(saved).toMatchObject({ name: OFFER_NAME, status: 'active', rules: { minScore: score }, version: 1 });

      // Pause and resume: the status follows; each change is on the trail under the staff id.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByText('Paused: customers no longer see it.').waitFor();
      expect((await sdk.call('getOffer', { params: { offerId } })).status).toBe('paused');
      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByText('Active: customers see it from its start.').waitFor();
      expect((await sdk.call('getOffer', { params: { offerId } })).status).toBe('active');
      await audit.check('console-offer-saved');
      const trail = await sdk.call('listAuditEvents', { query: { type: 'console.request', limit: 100 } });
      const byStaff = trail.data.filter((e) => e.actor.id === 'emp-offers').map((e) => e.subject.operationId);
      expect(byStaff).toEqual(expect.arrayContaining(['createOffer', 'pauseOffer', 'resumeOffer', 'previewOfferAudience']));
      expect(problems.filter((p) => /Content Security Policy|Refused to/.test(p))).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });

    // The demo bank's customer: the new offer in their Offers tab, pre-qualified at its rate.
    await runJourney(bank.browser, 'desktop', 'console-offer-widget', async ({ page }) => {
      await page.goto(`${demo.url}/?user=${externalUserId}`);
      const frame = widgetFrame(page);
      await shownScore(frame, score).waitFor();
      await openDashboardTab(frame, 'Offers', 'Offers for you');
      const card = frame
        .getByRole('tabpanel')
        .getByRole('listitem')
        .filter({ has: frame.getByRole('heading', { level: 3, name: OFFER_NAME, exact: true }) });
      await card.waitFor();
      await card.getByText(/Pre-qualified/).waitFor();
    });
  });

  it('a viewer sees the catalogue and an offer’s terms, with no button to change them, and the API refuses', {
    timeout: 60_000,
  }, async () => {
    const { sdk } = bank;
    const [first] = (await sdk.call('listOffers', { query: { limit: 1 } })).data;
    const link = await sdk.call('createConsoleLink', {
      body: { staff: { id: 'emp-offers-viewer', email: 'viewer@bank.example' }, role: 'viewer' },
    });
    await runJourney(bank.browser, 'mobile', 'console-offer-viewer', async ({ page, audit }) => {
      await page.goto(link.url);
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      await page.goto(`${bank.app.url}/console/offers`);
      await page.getByRole('table', { name: /Your offers/ }).waitFor();
      expect(await page.getByRole('link', { name: 'New offer' }).count()).toBe(0);
      await page
        .getByRole('link', { name: first?.name ?? '' })
        .first()
        .click();
      await page.getByRole('heading', { level: 2, name: first?.name ?? '' }).waitFor();
      for (const name of ['Save changes', 'Pause', 'Resume', 'Archive…', 'Add a tier']) {
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      }
      expect(await page.getByLabel('Name', { exact: true }).isDisabled()).toBe(true);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(sideways).toBeLessThanOrEqual(0);
      await audit.check('console-offer-viewer');
      await keepForGuide(audit.screenshots, 'offer-viewer-390');

      const refused = await page.evaluate(async (target) => {
        const session = await (await fetch('/console/session')).json();
        const res = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-console-csrf': session.data.csrfToken },
          body: JSON.stringify({}),
        });
        return { status: res.status, body: await res.json() };
      }, `${CONSOLE_API_PREFIX}${createOffer.path}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('role is viewer');
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
