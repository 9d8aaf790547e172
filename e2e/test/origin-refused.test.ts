import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import { createWidget, hostEvents, partnerPageHtml, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type RunningServer, servePage, startApi, type TestApp } from '../src/servers.ts';
import { newExternalUserId } from '../src/users.ts';

const READY_TIMEOUT_MS = 3_000;

describe('embedding from an origin that is not allowed', () => {
  let browser: Browser;
  let app: TestApp;
  /** Lets pages on localhost embed the widget. */
  let localhostPartner: Partner;
  /** Lets only its own site embed the widget. */
  let otherPartner: Partner;
  /** On 127.0.0.1 at its own port: no client of this API lists that origin. */
  let strangerPage: RunningServer;
  /** On localhost: framing is allowed (for localhostPartner), but not for otherPartner's tokens. */
  let localhostPage: RunningServer;

  beforeAll(async () => {
    assertBuilt();
    [browser, app] = await Promise.all([launchBrowser(), startApi()]);
    // Every client here names its embed origins: the sandbox default (any localhost) would allow everything.
    localhostPartner = await createPartner(app, ['http://localhost:*']);
    otherPartner = await createPartner(app, ['https://www.other-bank.example']);
    [strangerPage, localhostPage] = await Promise.all([
      servePage('127.0.0.1', () => partnerPageHtml(app.url)),
      servePage('localhost', () => partnerPageHtml(app.url)),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await strangerPage?.close();
    await localhostPage?.close();
    await app?.close();
  });

  const errorCodes = async (page: Parameters<typeof hostEvents>[0]) =>
    (await hostEvents(page)).filter((event) => event.name === 'error').map((event) => event.data?.code);

  it('the browser refuses the frame and the loader reports FRAME_REFUSED', { timeout: 30_000 }, async () => {
    const userToken = await app.userToken(localhostPartner.accessToken, newExternalUserId('refused'));
    await runJourney(browser, 'desktop', 'frame-refused', async ({ page, audit }) => {
      await page.goto(strangerPage.url);
      await createWidget(page, { userToken, readyTimeoutMs: READY_TIMEOUT_MS });
      await expect.poll(() => errorCodes(page), { timeout: READY_TIMEOUT_MS + 5_000 }).toContain('FRAME_REFUSED');
      // Chromium shows its own error page in place of the frame: none of the widget's content.
      expect(await widgetFrame(page).getByRole('heading').count()).toBe(0);
      expect(await widgetFrame(page).getByRole('button').count()).toBe(0);
      await audit.check('frame-refused');
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it("refuses the session when the page's origin is not one of the token's client's", { timeout: 30_000 }, async () => {
    const userToken = await app.userToken(otherPartner.accessToken, newExternalUserId('other'));
    await runJourney(browser, 'desktop', 'origin-not-allowed', async ({ page, audit }) => {
      await page.goto(localhostPage.url);
      await createWidget(page, { userToken });
      await widgetFrame(page).getByRole('heading', { name: 'The credit widget is not available here' }).waitFor();
      await expect.poll(() => errorCodes(page)).toContain('ORIGIN_NOT_ALLOWED');
      await audit.check('origin-not-allowed');
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('checks the framing page even when the token comes in the fragment', { timeout: 30_000 }, async () => {
    const userToken = await app.userToken(otherPartner.accessToken, newExternalUserId('fragment'));
    await runJourney(browser, 'desktop', 'origin-not-allowed-fragment', async ({ page }) => {
      const sessionBodies: unknown[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/widget/session') {
          sessionBodies.push(request.postDataJSON());
        }
      });
      await page.goto(localhostPage.url);
      // A page framing the webview URL itself: framed is framed, so the server must see who frames it.
      const src = `${app.url}/widget?parent=${encodeURIComponent(localhostPage.url)}#userToken=${encodeURIComponent(userToken)}`;
      await page.evaluate((frameSrc) => {
        const frame = document.createElement('iframe');
        frame.title = 'Credit score';
        frame.src = frameSrc;
        document.body.append(frame);
      }, src);
      await widgetFrame(page).getByRole('heading', { name: 'The credit widget is not available here' }).waitFor();
      expect(sessionBodies).toEqual([{ parentOrigin: localhostPage.url }]);
    });
  });
});
