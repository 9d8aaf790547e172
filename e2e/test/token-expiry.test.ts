import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { createWidget, hostEvents, NetworkLog, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

const USER_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
const PAST_EXPIRY_MS = USER_TOKEN_LIFETIME_MS + 60_000;

const SESSION_PATH = /^\/widget\/session$/;

describe('user token expiry while the widget is open', () => {
  const bank = useDemoBank({ partnerPage: true });

  /** Each test moves the API's clock past the partner's access token too, so each one asks for a fresh one. */
  const enrolJane = async (prefix: string) => {
    const externalUserId = newExternalUserId(prefix);
    const accessToken = await bank.app.token(bank.partner.client);
    await enrolActiveUser(bank.app, accessToken, externalUserId);
    return { externalUserId, accessToken };
  };

  const errorEvents = async (page: Parameters<typeof hostEvents>[0]) =>
    (await hostEvents(page)).filter((event) => event.name === 'error');

  it('gets a fresh token from the host page and carries on without reloading', { timeout: 60_000 }, async () => {
    const { externalUserId } = await enrolJane('expiry');
    await runJourney(bank.browser, 'desktop', 'token-expiry', async ({ page }) => {
      const network = new NetworkLog(page);
      await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
      const frame = widgetFrame(page);
      await frame.getByText(String(JANE.score)).first().waitFor();
      // Survives only if the page is never reloaded.
      await page.evaluate(() => {
        window.__marker = 'still the same page';
      });
      const exchangesBefore = network.matching('POST', SESSION_PATH).length;

      bank.app.clock.advance(PAST_EXPIRY_MS);
      await frame.getByRole('tab', { name: /offers/i }).click();

      await frame.getByRole('button', { name: /apply/i }).first().waitFor();
      expect(network.matching('POST', /^\/token$/).length, 'token requests to the host page').toBe(1);
      expect(network.matching('POST', SESSION_PATH).length, 'session exchanges').toBe(exchangesBefore + 1);
      expect(await page.evaluate(() => window.__marker)).toBe('still the same page');
      await expect.poll(() => frame.getByText('Your session has ended').count()).toBe(0);
      expect(await errorEvents(page), 'no error event reached the host').toEqual([]);
    });
  });

  it('asks the host once when queries fail together, even one that fails after the renewal', {
    timeout: 60_000,
  }, async () => {
    const { externalUserId } = await enrolJane('expiry-many');
    await runJourney(bank.browser, 'desktop', 'token-expiry-many', async ({ page, context }) => {
      const network = new NetworkLog(page);
      // The dashboard opens with the score and the unread-alerts badge at once: hold both until the token
      // has expired, then let the score fail first and the badge only after the session was renewed.
      const held = new Map<'score' | 'alerts', Route>();
      let bothHeld: () => void = () => {};
      const bothAreHeld = new Promise<void>((resolve) => {
        bothHeld = resolve;
      });
      await context.route(
        (url) => /\/v1\/users\/[^/]+\/(credit-score|alerts)$/.test(url.pathname),
        async (route) => {
          const kind = route.request().url().includes('/credit-score') ? 'score' : 'alerts';
          if (held.has(kind) || route.request().method() !== 'GET') return route.continue();
          held.set(kind, route);
          if (held.size === 2) bothHeld();
        },
      );
      await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
      await bothAreHeld;
      expect(network.matching('POST', SESSION_PATH).length, 'the first exchange').toBe(1);

      bank.app.clock.advance(PAST_EXPIRY_MS);
      await held.get('score')?.continue();
      await expect
        // The renewal is a round trip through the host page and two requests: under a full parallel run it
        // takes longer than expect.poll's one-second default.
        .poll(() => network.matching('GET', SESSION_PATH).length, { message: 'the renewed session was probed', timeout: 10_000 })
        .toBe(2);
      await held.get('alerts')?.continue();

      const frame = widgetFrame(page);
      await frame.getByText(String(JANE.score)).first().waitFor();
      await expect
        .poll(() => network.matching('GET', /\/alerts$/).some((response) => response.ok()), {
          message: 'the badge query succeeded on its retry',
        })
        .toBe(true);
      expect(network.matching('POST', /^\/token$/).length, 'token requests to the host page').toBe(1);
      expect(network.matching('POST', SESSION_PATH).length, 'session exchanges').toBe(2);
      expect(await errorEvents(page), 'no error event reached the host').toEqual([]);
    });
  });

  it('starts with a token that expired before the frame could use it', { timeout: 60_000 }, async () => {
    const { externalUserId, accessToken } = await enrolJane('expired-start');
    const names = { firstName: JANE.firstName, lastName: JANE.lastName };
    const staleToken = await bank.app.userToken(accessToken, externalUserId, names);
    bank.app.clock.advance(PAST_EXPIRY_MS);
    let tokensIssued = 0;
    await runJourney(bank.browser, 'desktop', 'token-expired-start', async ({ page }) => {
      const network = new NetworkLog(page);
      // The partner's own server minting a fresh token for its signed-in customer.
      await page.exposeFunction('freshUserToken', async () => {
        tokensIssued += 1;
        return bank.app.userToken(await bank.app.token(bank.partner.client), externalUserId, names);
      });
      await page.goto(bank.partnerPage.url);
      await createWidget(page, { userToken: staleToken, tokenFunction: 'freshUserToken' });

      await widgetFrame(page).getByText(String(JANE.score)).first().waitFor();
      expect(tokensIssued, 'the frame asked the host for a fresh token').toBe(1);
      const exchanges = network.matching('POST', SESSION_PATH).map((response) => response.status());
      expect(exchanges, 'the stale token refused, the fresh one accepted').toEqual([401, 201]);
      expect(await errorEvents(page), 'no error event reached the host').toEqual([]);
    });
  });
});
