import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_API_PREFIX, listWebhooks, type TProgramResults, testWebhook } from '@credit/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { REPO_ROOT } from '../src/built-files.ts';
import { useDemoBank } from '../src/demo-bank.ts';
import { runJourney } from '../src/screen-check.ts';
import { servePage } from '../src/servers.ts';
import { enrolActiveUser, enrolUser, newExternalUserId } from '../src/users.ts';
import { keepForGuide } from './console-screenshots.ts';

const CONSOLE_INDEX = path.join(REPO_ROOT, 'apps/console/dist/index.html');
const WEBHOOK_URL = 'https://127.0.0.1:9/console-journey';
const MEASURES = ['Enrolled', 'Looking', 'Clicks', 'Applications', 'Funded'] as const;
const MEASURE_KEYS = {
  Enrolled: 'enrolled',
  Looking: 'looked',
  Clicks: 'clicks',
  Applications: 'applications',
  Funded: 'funded',
} as const;

/** A console link's token, wherever it appears: no URL the browser loads after the sign-in may carry one. */
const LINK_TOKEN = /cst_(sbx|live)_[A-Za-z0-9]{40}/;

/** The numbers of the Program table's Total row, by column header. */
const totalsShown = async (page: Page): Promise<Record<string, string>> => {
  const table = page.getByRole('table', { name: /Results by/ });
  const headers = await table.locator('thead th').allInnerTexts();
  const cells = await table
    .getByRole('row', { name: /^Total/ })
    .locator('th, td')
    .allInnerTexts();
  return Object.fromEntries(headers.map((header, i) => [header.trim(), (cells[i] ?? '').trim()]));
};

const whole = (n: number) => new Intl.NumberFormat('en-US').format(n);

describe('the bank’s console in Chromium', () => {
  const bank = useDemoBank({ demo: false });

  it('is built', () => {
    expect(existsSync(CONSOLE_INDEX), 'run `pnpm build` first').toBe(true);
  });

  it('signs a viewer in by a link from the SDK: the Program page shows the results API’s numbers, and nothing changes', {
    timeout: 90_000,
  }, async () => {
    const { app, partner, sdk } = bank;
    // Three customers enrolled today, two of them verified, and a click on an offer: numbers the page must show.
    const looked = newExternalUserId('console-looked');
    const active = await enrolActiveUser(app, partner.accessToken, looked);
    await enrolActiveUser(app, partner.accessToken, newExternalUserId('console-b'));
    await enrolUser(app, partner.accessToken, newExternalUserId('console-c'));
    const offers = await sdk.call('listUserOffers', { params: { userId: active } });
    const offerId = offers.data[0]?.offerId as string;
    await sdk.call('recordOfferClick', { params: { userId: active, offerId }, body: {} });
    const webhook = await sdk.call('createWebhook', { body: { url: WEBHOOK_URL, events: ['user.enrolled'] } });

    const link = await sdk.call('createConsoleLink', {
      body: { staff: { id: 'emp-viewer', email: 'viewer@bank.example' }, role: 'viewer' },
    });

    // The bank's admin tool, on another site (localhost; the API is on 127.0.0.1): its link opens the console.
    const adminTool = await servePage(
      'localhost',
      () => `<!doctype html><html lang="en"><title>Admin</title><a href="${link.url}">Open the console</a></html>`,
    );
    onTestFinished(() => adminTool.close());
    await runJourney(bank.browser, 'desktop', 'console-viewer', async ({ page, audit, requestUrls, problems }) => {
      await page.goto(adminTool.url);
      await page.getByRole('link', { name: 'Open the console' }).click();
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      expect(page.url()).toBe(`${app.url}/console/`);
      expect(await page.evaluate(() => window.location.href)).not.toMatch(LINK_TOKEN);
      await page.getByRole('table', { name: /Results by/ }).waitFor();

      // The range the page shows, asked of the results API through the SDK: the same totals.
      const from = await page.getByLabel('From', { exact: true }).inputValue();
      const to = await page.getByLabel('To', { exact: true }).inputValue();
      const results: TProgramResults = await sdk.call('getProgramResults', { query: { from, to, interval: 'day' } });
      expect(results.totals.enrolled).toBe(3);
      expect(results.totals.clicks).toBe(1);
      const shown = await totalsShown(page);
      for (const measure of MEASURES) expect(shown[measure], measure).toBe(whole(results.totals[MEASURE_KEYS[measure]]));
      expect(
        await page
          .getByRole('table', { name: /Results by/ })
          .locator('tbody tr')
          .count(),
      ).toBe(results.series.length);
      await audit.check('console-program');
      await keepForGuide(audit.screenshots, 'program');

      // The export holds the same totals.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export to CSV' }).click(),
      ]);
      const csv = await (await download.createReadStream()).toArray();
      const lines = Buffer.concat(csv).toString('utf8').trim().split('\r\n');
      expect(lines[0]).toBe('period_start,enrolled,looked,clicks,applications,funded,approvals,declines,funded_amount_usd');
      const t = results.totals;
      expect(lines.at(-1)).toBe(
        ['total', t.enrolled, t.looked, t.clicks, t.applications, t.funded, t.approvals, t.declines, t.fundedAmount].join(','),
      );

      // A range in the address is a link a colleague can open: the form writes it, the page reads it.
      await page.getByRole('combobox', { name: /Group by/ }).selectOption('week');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('table', { name: 'Results by week' }).waitFor();
      expect(new URL(page.url()).searchParams.get('interval')).toBe('week');

      // Webhooks: the endpoint and its health, and no button that changes anything.
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByRole('heading', { level: 2, name: WEBHOOK_URL, exact: true }).waitFor();
      await page.getByText('You are signed in as a viewer').waitFor();
      for (const name of ['Send a test event', 'Recover missed events', 'Rotate secret', 'Re-activate']) {
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      }
      await audit.check('console-webhooks-viewer');

      // And the API refuses the change the page does not offer, even from this signed-in browser.
      const testPath = `${CONSOLE_API_PREFIX}${testWebhook.path.replace('{webhookId}', webhook.webhookId)}`;
      const refused = await page.evaluate(async (target) => {
        const session = await (await fetch('/console/session')).json();
        const res = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-console-csrf': session.data.csrfToken },
          body: JSON.stringify({ eventType: 'user.enrolled' }),
        });
        return { status: res.status, body: await res.json() };
      }, testPath);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('role is viewer');

      // Customers: found by the bank's own id, masked, and the address names our id only.
      await page.getByRole('link', { name: 'Customers' }).click();
      await page.getByLabel('Your customer id').fill(looked);
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('heading', { level: 2, name: 'Consent' }).waitFor();
      expect(new URL(page.url()).searchParams.get('user')).toBe(active);
      expect(page.url()).not.toContain(looked);
      await page.getByText('J*** D***').waitFor();
      expect(await page.getByText(`${looked}@example.test`).count()).toBe(0);
      await page.getByText(`${looked.slice(0, 1)}***@example.test`).waitFor();
      await audit.check('console-customer');

      // Events: filtered by type in the address, a link a colleague opens to the same list.
      await page.getByRole('link', { name: 'Events' }).click();
      await page.getByRole('table', { name: 'Events, newest first' }).waitFor();
      await page.getByRole('combobox', { name: 'Type' }).selectOption('user.enrolled');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/type=user\.enrolled/);
      await page.getByRole('table', { name: 'Events, newest first' }).waitFor();
      const types = await page.getByRole('table', { name: 'Events, newest first' }).locator('tbody th').allInnerTexts();
      expect(new Set(types)).toEqual(new Set(['user.enrolled']));
      await audit.check('console-events');
      await keepForGuide(audit.screenshots, 'events');

      // Audit trail: this staff member's own looks are on it, and the chain holds (a viewer may check it).
      await page.getByRole('link', { name: 'Audit trail' }).click();
      await page.getByRole('combobox', { name: 'Type' }).selectOption('console.request');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/type=console\.request/);
      await page.getByRole('cell', { name: 'staff: emp-viewer' }).first().waitFor();
      await page.getByRole('button', { name: 'Verify the chain' }).click();
      await page.getByText(/^The chain holds/).waitFor();
      await audit.check('console-audit');
      await keepForGuide(audit.screenshots, 'audit-trail');

      // Sandbox: the clocks and the story ssns; no button that changes a clock.
      await page.getByRole('link', { name: 'Sandbox' }).click();
      await page.getByRole('table', { name: /Last four digits/ }).waitFor();
      expect(await page.getByRole('button', { name: 'Create a test clock' }).count()).toBe(0);
      await audit.check('console-sandbox-viewer', { screenshot: false });

      // Credentials: the client id and the secret's age, and no rotation for a viewer.
      await page.getByRole('link', { name: 'Credentials' }).click();
      await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
      await page.getByText(partner.client.id, { exact: true }).waitFor();
      await page.getByText('Your role is viewer: an editor rotates the secret.').waitFor();
      for (const name of ['Rotate secret', 'Rotate now']) expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      await audit.check('console-credentials-viewer', { screenshot: false });

      // In Spanish, chosen in the header: the navigation, the page and its states, and still axe clean.
      await page.getByLabel('Language').selectOption('es');
      await page.getByRole('heading', { level: 1, name: 'Credenciales' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      expect(await page.title()).toContain('Credenciales · consola de');
      await page.getByRole('navigation', { name: 'Consola' }).getByRole('link', { name: 'Registro de auditoría' }).waitFor();
      await page.getByText('Su rol es lector: un editor rota el secreto.').waitFor();
      await page.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
      await audit.check('console-credentials-es');
      await keepForGuide(audit.screenshots, 'credentials-es');
      await page.getByLabel('Idioma').selectOption('en');
      await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();

      // Signing out ends the session: the console's calls then answer 401.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'You are signed out of the console' }).waitFor();
      const after = await page.evaluate(
        async (target) => (await fetch(target)).status,
        `${CONSOLE_API_PREFIX}${listWebhooks.path}`,
      );
      expect(after).toBe(401);

      const signIn = requestUrls.findIndex((url) => LINK_TOKEN.test(url));
      expect(requestUrls[signIn]).toBe(link.url);
      expect(requestUrls.slice(signIn + 1).filter((url) => LINK_TOKEN.test(url))).toEqual([]);
      expect(problems.filter((p) => /Content Security Policy|Refused to/.test(p))).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });

    // The link opened once: a second visit is a page that says so.
    await runJourney(bank.browser, 'desktop', 'console-link-reused', async ({ page }) => {
      const res = await page.goto(link.url);
      expect(res?.status()).toBe(410);
      await page.getByRole('heading', { name: 'This console link was already used' }).waitFor();
    });
  });

  it('lets an editor send a test event and rotate the client secret, and works at 390 px', { timeout: 60_000 }, async () => {
    const { app, partner, sdk } = bank;
    const url = `${WEBHOOK_URL}/editor`;
    await sdk.call('createWebhook', { body: { url, events: ['user.enrolled'] } });
    const link = await sdk.call('createConsoleLink', {
      body: { staff: { id: 'emp-editor', email: 'editor@bank.example' }, role: 'editor' },
    });
    await runJourney(bank.browser, 'mobile', 'console-editor', async ({ page, audit, problems }) => {
      await page.goto(link.url);
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      await page.getByRole('table', { name: /Results by/ }).waitFor();
      const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(await sideways()).toBeLessThanOrEqual(0);
      await audit.check('console-program');

      await page.getByRole('link', { name: 'Webhooks' }).click();
      const card = page.getByRole('article', { name: url, exact: true });
      await card.getByRole('button', { name: 'Send a test event' }).click();
      // Port 9 refuses at once: the outcome says why, as the endpoint's log does.
      await card.getByText(/Not delivered: .+/).waitFor();
      expect(await sideways()).toBeLessThanOrEqual(0);
      await audit.check('console-webhooks-editor');

      // Sandbox: a test clock made and advanced a month from the console.
      await page.getByRole('link', { name: 'Sandbox' }).click();
      await page.getByLabel('New clock’s name').fill('Console month');
      await page.getByRole('button', { name: 'Create a test clock' }).click();
      const clock = page.getByRole('article', { name: 'Console month' });
      await clock.getByText('ready', { exact: true }).waitFor();
      const before = (await sdk.call('listSandboxClocks', { query: { limit: 1 } })).data[0];
      await clock.getByRole('button', { name: 'Advance a month' }).click();
      // Accepted: the clock is advancing (the clocks worker, not run by this suite's API, moves it on).
      await clock.getByText('advancing', { exact: true }).waitFor();
      expect((await sdk.call('getSandboxClock', { params: { clockId: before?.clockId ?? '' } })).status).toBe('advancing');
      expect(await sideways()).toBeLessThanOrEqual(0);
      await audit.check('console-sandbox-editor');
      await keepForGuide(audit.screenshots, 'sandbox-390');

      // Credentials: a rotation with an hour's overlap; the secret shown once mints a token through the SDK.
      await page.getByRole('link', { name: 'Credentials' }).click();
      await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
      await page.getByLabel('Overlap: how long the current secret keeps working').selectOption({ label: '1 hour' });
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByText('The current secret keeps working for 1 hour, then stops.').waitFor();
      await page.getByRole('button', { name: 'Rotate now' }).click();
      await page.getByText('It will not be shown again.').waitFor();
      const secret = await page.getByLabel('New client secret').inputValue();
      expect(secret).toMatch(/^sk_/);
      await page.getByRole('button', { name: 'Copy the secret' }).waitFor();
      await page.getByText(/^The previous secret still mints tokens until /).waitFor();
      await page.getByText(/^Valid until /).waitFor();
      expect(await sideways()).toBeLessThanOrEqual(0);
      await audit.check('console-credentials-editor');
      await keepForGuide(audit.screenshots, 'credentials-390');

      const rotated = app.sdk({ id: partner.client.id, secret });
      const state = await rotated.call('getClientCredentials', {});
      expect(state.clientId).toBe(partner.client.id);
      expect(state.previousSecret?.expiresAt).toBe(new Date(Date.parse(state.secretCreatedAt) + 3_600_000).toISOString());
      // The page shows the secret this once: a reload shows the state and no secret.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Credentials' }).waitFor();
      await page.getByText(/^Valid until /).waitFor();
      expect(await page.getByLabel('New client secret').count()).toBe(0);

      const trail = await sdk.call('listAuditEvents', { query: { type: 'console.request', limit: 100 } });
      expect(trail.data.some((e) => e.actor.id === 'emp-editor' && e.subject.operationId === 'testWebhook')).toBe(true);
      const rotations = await sdk.call('listAuditEvents', { query: { type: 'client.secret_rotated', limit: 10 } });
      expect(rotations.data.map((e) => e.actor)).toEqual([{ kind: 'staff', id: 'emp-editor' }]);
      expect(problems.filter((p) => /Content Security Policy|Refused to/.test(p))).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
