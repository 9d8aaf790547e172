import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_API_PREFIX, listWebhooks, type TProgramResults, testWebhook } from '@credit/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startClockAdvances } from '../../apps/bff/src/modules/clocks/service.ts';
import { createConsoleLink } from '../../apps/bff/src/modules/console/service.ts';
import { REPO_ROOT } from '../src/built-files.ts';
import { consoleEnglishStrings, englishShown } from '../src/console-language.ts';
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
/** An instant as the console writes it in English, run in the page (the browser's own date formats). */
const instantEn = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso));

/** A day as es-US writes it in the console: `2 dic 2026`, a Spanish month among it. */
const SPANISH_DAY = /\b\d{1,2} (ene|feb|mar|abr|may|jun|jul|ago|sept?|oct|nov|dic)\.? \d{4}\b/;

/**
 * Own API, with the worker's clock advances running in it (the start command runs that worker): a test clock the
 * Sandbox page advances moves on, and the page sees it ready.
 */
describe('the bank’s console in Chromium', () => {
  const bank = useDemoBank({ demo: false });
  let clocks: { stop(): Promise<void> } | undefined;
  beforeAll(() => {
    clocks = startClockAdvances(bank.app.ctx);
  });
  afterAll(() => clocks?.stop());

  it('is built', () => {
    expect(existsSync(CONSOLE_INDEX), 'run `pnpm build` first').toBe(true);
  });

  it('signs a viewer in by a link from the SDK: the Program page shows the results API’s numbers, and nothing changes', {
    timeout: 150_000,
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

      // The console's English strings, which no page in Spanish may show: the English page shows them.
      const english = await consoleEnglishStrings();
      expect(await englishShown(page, english)).toEqual(
        expect.arrayContaining(['Credentials', 'Your role is viewer: an editor rotates the secret.', 'Client id']),
      );

      // In Spanish, chosen in the header: the navigation, the page and its states, and still axe clean.
      await page.getByLabel('Language').selectOption('es');
      await page.getByRole('heading', { level: 1, name: 'Credenciales' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
      expect(await page.title()).toContain('Credenciales · consola de');
      const nav = page.getByRole('navigation', { name: 'Consola' });
      await nav.getByRole('link', { name: 'Registro de auditoría' }).waitFor();
      await page.getByText('Su rol es lector: un editor rota el secreto.').waitFor();
      await page.getByRole('button', { name: 'Cerrar sesión' }).waitFor();
      await audit.check('console-credentials-es');
      await keepForGuide(audit.screenshots, 'credentials-es');

      // Every page in Spanish: its heading, a few of its labels, dates in Spanish, and none of the console's English.
      const noEnglish = async (where: string) => expect(await englishShown(page, english), where).toEqual([]);
      await noEnglish('Credenciales');

      await nav.getByRole('link', { name: 'Programa' }).click();
      await page.getByRole('heading', { level: 1, name: 'Programa' }).waitFor();
      const byDay = page.getByRole('table', { name: 'Resultados por día' });
      await byDay.waitFor();
      expect(await byDay.locator('thead th').allInnerTexts()).toEqual([
        'Periodo',
        'Inscritos',
        'Consultan',
        'Clics',
        'Solicitudes',
        'Otorgados',
        'Monto otorgado',
      ]);
      expect(await byDay.locator('tbody th').first().textContent()).toMatch(SPANISH_DAY);
      await page.getByLabel('Agrupar por').waitFor();
      await page.getByRole('button', { name: 'Exportar a CSV' }).waitFor();
      await page
        .getByRole('figure')
        .getByText(/^Del .+ al .+, por día$/)
        .waitFor();
      await noEnglish('Programa');
      await audit.check('console-program-es');
      await keepForGuide(audit.screenshots, 'program-es');

      await nav.getByRole('link', { name: 'Ofertas' }).click();
      await page.getByRole('heading', { level: 1, name: 'Ofertas' }).waitFor();
      await page.getByRole('table', { name: 'Sus ofertas (activa)' }).waitFor();
      await page.getByRole('combobox', { name: 'Estado' }).waitFor();
      await page.getByText('Inició sesión como lector: ve cada oferta y sus condiciones.', { exact: false }).waitFor();
      await noEnglish('Ofertas');

      await nav.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 2, name: WEBHOOK_URL, exact: true }).waitFor();
      await page.getByRole('link', { name: 'Registro de entregas de este endpoint' }).waitFor();
      await page.getByText('Última entrega').waitFor();
      await noEnglish('Webhooks');

      await nav.getByRole('link', { name: 'Eventos' }).click();
      await page.getByRole('table', { name: 'Eventos, del más reciente al más antiguo' }).waitFor();
      await page.getByRole('combobox', { name: 'Tipo' }).waitFor();
      await page.getByLabel('Desde el día').waitFor();
      await noEnglish('Eventos');

      await nav.getByRole('link', { name: 'Registro de auditoría' }).click();
      await page.getByRole('heading', { level: 1, name: 'Registro de auditoría' }).waitFor();
      await page.getByRole('button', { name: 'Verificar la cadena' }).click();
      await page.getByText(/^La cadena está intacta/).waitFor();
      await noEnglish('Registro de auditoría');

      await nav.getByRole('link', { name: 'Clientes' }).click();
      await page.getByLabel('Su id de cliente').fill(looked);
      await page.getByRole('button', { name: 'Buscar' }).click();
      await page.getByRole('heading', { level: 2, name: 'Consentimiento' }).waitFor();
      await page.getByRole('heading', { level: 3, name: 'Monitoreo de crédito' }).waitFor();
      await page.getByText('Correo electrónico').waitFor();
      await noEnglish('Clientes');
      await audit.check('console-customer-es', { screenshot: false });

      await nav.getByRole('link', { name: 'Sandbox' }).click();
      await page.getByRole('table', { name: /Últimos cuatro dígitos del ssn/ }).waitFor();
      await page.getByRole('heading', { level: 2, name: 'Ssn de historia' }).waitFor();
      await noEnglish('Sandbox');

      // Signing out ends the session, in the language chosen: the console's calls then answer 401.
      await page.getByRole('button', { name: 'Cerrar sesión' }).click();
      await page.getByRole('heading', { name: 'Cerró la sesión de la consola' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
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

    // The link opened once: a second visit is a page that says so, in Spanish to a browser that prefers it.
    await runJourney(bank.browser, 'desktop', 'console-link-reused', async ({ page }) => {
      const res = await page.goto(link.url);
      expect(res?.status()).toBe(410);
      await page.getByRole('heading', { name: 'This console link was already used' }).waitFor();
      await page.setExtraHTTPHeaders({ 'accept-language': 'es-US,es;q=0.9,en;q=0.5' });
      await page.goto(link.url);
      await page.getByRole('heading', { name: 'Este enlace de la consola ya se usó' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    });
  });

  it('lets an editor send a test event, move a test clock a month on and rotate the client secret, at 390 px', {
    timeout: 90_000,
  }, async () => {
    const { app, partner, sdk } = bank;
    const url = `${WEBHOOK_URL}/editor`;
    await sdk.call('createWebhook', { body: { url, events: ['user.enrolled'] } });
    // A customer for the test clock, with the file on record pulled: their history until today.
    const customer = await enrolActiveUser(app, partner.accessToken, newExternalUserId('console-clock'));
    await sdk.call('getCreditScore', { params: { userId: customer } });
    const historyBefore = await sdk.call('listCreditScoreHistory', {
      params: { userId: customer },
      query: { months: 24, limit: 100 },
    });
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

      // Sandbox: a test clock made, a customer attached and the clock advanced a month, all from the console; the
      // clocks worker runs the month's monitoring and the page, following the clock, shows it ready at its new time.
      await page.getByRole('link', { name: 'Sandbox' }).click();
      await page.getByLabel('New clock’s name').fill('Console month');
      await page.getByRole('button', { name: 'Create a test clock' }).click();
      const clock = page.getByRole('article', { name: 'Console month' });
      await clock.getByText('ready', { exact: true }).waitFor();
      const created = (await sdk.call('listSandboxClocks', { query: { limit: 100 } })).data.find(
        (c) => c.name === 'Console month',
      );
      if (!created) throw new Error('the console made no clock the API lists');
      await clock.getByLabel(/Customers to attach/).fill(customer);
      await clock.getByRole('button', { name: 'Attach', exact: true }).click();
      await clock.getByText('1 customer on this clock now.').waitFor();
      await clock.getByRole('button', { name: 'Advance a month' }).click();
      await clock.getByText('advancing', { exact: true }).waitFor();
      await clock.getByText('ready', { exact: true }).waitFor({ timeout: 30_000 });
      const moved = await sdk.call('getSandboxClock', { params: { clockId: created.clockId } });
      expect(moved).toMatchObject({ status: 'ready', userCount: 1 });
      const month = new Date(created.frozenTime);
      month.setUTCMonth(month.getUTCMonth() + 1);
      expect(moved.frozenTime).toBe(month.toISOString());
      const shownTime = await clock.getByRole('definition').first().textContent();
      expect(shownTime).toBe(`${await page.evaluate(instantEn, moved.frozenTime)} UTC`);
      // The customer's month on the clock: a history point in the clock's new month, newer than any before (the
      // 24 months' window then drops its oldest).
      const historyAfter = await sdk.call('listCreditScoreHistory', {
        params: { userId: customer },
        query: { months: 24, limit: 100 },
      });
      expect(Date.parse(historyAfter.data[0]?.date ?? '')).toBeGreaterThan(Date.parse(historyBefore.data[0]?.date ?? ''));
      expect(historyAfter.data[0]?.date.slice(0, 7)).toBe(moved.frozenTime.slice(0, 7));
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

  it('shows a bank client without the admin scope only the pages it may use, and says so at the others’ addresses', {
    timeout: 60_000,
  }, async () => {
    const { app } = bank;
    const client = await app.createClient({ name: 'Bank without admin', scopes: ['read', 'offers', 'webhooks'] });
    // Without admin the bank's own server cannot ask for a link: the operator's CLI does (`pnpm clients console`).
    const link = await createConsoleLink(
      app.ctx,
      client.id,
      { staff: { id: 'emp-no-admin', email: 'no-admin@bank.example' }, role: 'editor' },
      { kind: 'operator', id: 'clients-cli' },
    );
    await runJourney(bank.browser, 'desktop', 'console-no-admin', async ({ page, audit, problems }) => {
      const refusedCalls: string[] = [];
      page.on('response', (res) => {
        if (res.url().includes(CONSOLE_API_PREFIX) && res.status() === 403) refusedCalls.push(res.url());
      });
      await page.goto(link.url);
      await page.getByRole('heading', { level: 1, name: 'Program' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Console' });
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Program', 'Offers', 'Webhooks', 'Events', 'Customers']);

      // The pages the admin scope opens, asked for by their address: a clear state, and no call the API refuses.
      for (const [path, heading] of [
        ['/console/audit', 'Audit trail'],
        ['/console/credentials', 'Credentials'],
        ['/console/sandbox', 'Sandbox'],
      ] as const) {
        await page.goto(`${app.url}${path}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        const state = page.getByRole('status').filter({ hasText: 'Not available to this session' });
        await state.getByText(/needs the “admin” scope, which your bank’s API client does not hold/).waitFor();
        expect(await page.getByRole('alert').count(), path).toBe(0);
        for (const name of ['Verify the chain', 'Rotate secret', 'Create a test clock']) {
          expect(await page.getByRole('button', { name }).count(), `${path}: ${name}`).toBe(0);
        }
      }
      await audit.check('console-unavailable');
      await keepForGuide(audit.screenshots, 'unavailable');

      // In Spanish too.
      await page.getByLabel('Language').selectOption('es');
      await page.getByRole('heading', { level: 1, name: 'Sandbox' }).waitFor();
      await page.getByText('No disponible en esta sesión').waitFor();

      // What it may use works as for any editor: the endpoints' buttons are there.
      await page.getByLabel('Idioma').selectOption('en');
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
      await page.getByText('No webhook endpoint yet').waitFor();
      expect(refusedCalls).toEqual([]);
      expect(problems.filter((p) => /Content Security Policy|Refused to/.test(p))).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
