import type { FrameLocator, Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { hostEventNames, hostEvents, NetworkLog, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

/** Headers Node's fetch sets itself, or that describe a body it already decoded. */
const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'accept-encoding', 'transfer-encoding']);

/**
 * Answers the session exchange from Node, without its `Set-Cookie`: to the frame this is a browser that
 * refused the cookie. (Playwright's own `route.fetch` would put the cookie into the context's jar.)
 */
const exchangeWithoutCookie = async (route: Route) => {
  const request = route.request();
  const headers = Object.fromEntries(
    Object.entries(await request.allHeaders()).filter(([name]) => !HOP_HEADERS.has(name) && !name.startsWith(':')),
  );
  const body = request.postData();
  const response = await fetch(request.url(), { method: request.method(), headers, body });
  const answered: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-encoding' && !HOP_HEADERS.has(name)) answered[name] = value;
  });
  await route.fulfill({ status: response.status, headers: answered, body: Buffer.from(await response.arrayBuffer()) });
};

describe('widget session modes', () => {
  const bank = useDemoBank();

  it('falls back to the bearer token when the browser keeps no session cookie', { timeout: 60_000 }, async () => {
    const externalUserId = newExternalUserId('bearer');
    await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
    await runJourney(bank.browser, 'desktop', 'bearer-mode', async ({ page, context }) => {
      const network = new NetworkLog(page);
      await context.route(
        (url) => url.pathname === '/widget/session',
        (route) => (route.request().method() === 'POST' ? exchangeWithoutCookie(route) : route.continue()),
      );
      const scoreRequest = page.waitForRequest((request) => /\/v1\/users\/[^/]+\/credit-score$/.test(request.url()));
      await page.goto(`${bank.demo.url}/?user=${externalUserId}`);

      await widgetFrame(page).getByText(String(JANE.score)).first().waitFor();
      expect(await (await scoreRequest).headerValue('authorization')).toMatch(/^Bearer ut_/);
      expect(
        network.matching('GET', /^\/widget\/session$/).map((r) => r.status()),
        'the cookie probe failed',
      ).toEqual([401]);
      expect((await context.cookies(bank.app.url)).length, 'cookies the browser kept for the API').toBe(0);
      expect((await hostEvents(page)).filter((event) => event.name === 'error')).toEqual([]);
    });
  });

  /** One customer's tab of the bank's site: the widget shows their score, then their alerts. */
  const openCustomerPage = async (page: Page, externalUserId: string) => {
    await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
    return widgetFrame(page);
  };

  const showAlerts = async (frame: FrameLocator) => {
    await frame.getByRole('tab', { name: /alerts/i }).click();
    await frame.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
  };

  it('keeps two customers of one bank apart in two tabs of one browser', { timeout: 60_000 }, async () => {
    const [first, second] = [newExternalUserId('tab-a'), newExternalUserId('tab-b')];
    const [, secondUserId] = await Promise.all([
      enrolActiveUser(bank.app, bank.partner.accessToken, first),
      enrolActiveUser(bank.app, bank.partner.accessToken, second),
    ]);
    // A drop of more than 10 points also raises a score_change alert: the second customer's own data on two tabs.
    const secondScore = JANE.score - 40;
    await bank.sdk.call('sandboxRefreshScore', { params: { userId: secondUserId }, body: { score: secondScore } });

    await runJourney(bank.browser, 'desktop', 'two-customers', async ({ page, context }) => {
      const secondPage = await context.newPage();
      const logs = [new NetworkLog(page), new NetworkLog(secondPage)];
      const firstFrame = await openCustomerPage(page, first);
      await firstFrame.getByText(String(JANE.score)).first().waitFor();
      // The second session starts while the first is open, in the same browser and the same partition.
      const secondFrame = await openCustomerPage(secondPage, second);
      await secondFrame.getByText(String(secondScore)).first().waitFor();

      await showAlerts(firstFrame);
      await firstFrame.getByText('No alerts').waitFor();
      await showAlerts(secondFrame);
      await expect.poll(() => secondFrame.getByRole('button', { name: /mark as read/i }).count()).toBeGreaterThan(0);
      await firstFrame.getByRole('tab', { name: /offers/i }).click();
      await firstFrame.getByRole('button', { name: /apply/i }).first().waitFor();
      await secondFrame.getByRole('tab', { name: /offers/i }).click();
      await secondFrame.getByRole('button', { name: /apply/i }).first().waitFor();

      for (const [index, log] of logs.entries()) {
        const who = `customer ${index + 1}`;
        expect(log.matching('POST', /^\/widget\/session$/).length, `${who}: session exchanges`).toBe(1);
        expect(log.matching('POST', /^\/token$/).length, `${who}: token requests`).toBe(0);
        const failed = log.responses.filter((r) => new URL(r.url()).pathname.startsWith('/v1/') && !r.ok());
        expect(
          failed.map((r) => `${r.status()} ${r.url()}`),
          `${who}: failed API calls`,
        ).toEqual([]);
      }
      for (const tab of [page, secondPage]) expect(await hostEventNames(tab)).not.toContain('error');
    });
  });
});
