import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { createWidget, hostEvents, partnerPageHtml, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { createPartner, type Partner, type RunningServer, servePage } from '../src/servers.ts';
import { newExternalUserId } from '../src/users.ts';

const READY_TIMEOUT_MS = 3_000;

describe('embedding from an origin that is not allowed', () => {
  // Every client here names its embed origins: the sandbox default (any localhost) would allow everything.
  // bank.partner lets pages on localhost embed the widget; bank.partnerPage, on localhost, is such a page:
  // framing is allowed there (for bank.partner), but not for otherPartner's tokens.
  const bank = useDemoBank({ demo: false, partnerPage: true });
  /** Lets only its own site embed the widget. */
  let otherPartner: Partner;
  /** On 127.0.0.1 at its own port: no client of this API lists that origin. */
  let strangerPage: RunningServer;

  beforeAll(async () => {
    otherPartner = await createPartner(bank.app, ['https://www.other-bank.example']);
    strangerPage = await servePage('127.0.0.1', () => partnerPageHtml(bank.app.url));
  });

  afterAll(async () => {
    await strangerPage?.close();
  });

  const errorCodes = async (page: Parameters<typeof hostEvents>[0]) =>
    (await hostEvents(page)).filter((event) => event.name === 'error').map((event) => event.data?.code);

  it('the browser refuses the frame and the loader reports FRAME_REFUSED', { timeout: 30_000 }, async () => {
    const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('refused'));
    await runJourney(bank.browser, 'desktop', 'frame-refused', async ({ page, audit }) => {
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
    const userToken = await bank.app.userToken(otherPartner.accessToken, newExternalUserId('other'));
    await runJourney(bank.browser, 'desktop', 'origin-not-allowed', async ({ page, audit }) => {
      await page.goto(bank.partnerPage.url);
      await createWidget(page, { userToken });
      await widgetFrame(page).getByRole('heading', { name: 'The credit widget is not available here' }).waitFor();
      await expect.poll(() => errorCodes(page)).toContain('ORIGIN_NOT_ALLOWED');
      await audit.check('origin-not-allowed');
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('checks the framing page even when the token comes in the fragment', { timeout: 30_000 }, async () => {
    const userToken = await bank.app.userToken(otherPartner.accessToken, newExternalUserId('fragment'));
    await runJourney(bank.browser, 'desktop', 'origin-not-allowed-fragment', async ({ page }) => {
      const sessionBodies: unknown[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/widget/session') {
          sessionBodies.push(request.postDataJSON());
        }
      });
      await page.goto(bank.partnerPage.url);
      // A page framing the webview URL itself: framed is framed, so the server must see who frames it.
      const src = `${bank.app.url}/widget?parent=${encodeURIComponent(bank.partnerPage.url)}#userToken=${encodeURIComponent(userToken)}`;
      await page.evaluate((frameSrc) => {
        const frame = document.createElement('iframe');
        frame.title = 'Credit score';
        frame.src = frameSrc;
        document.body.append(frame);
      }, src);
      await widgetFrame(page).getByRole('heading', { name: 'The credit widget is not available here' }).waitFor();
      // The frame's own origin check asks once, naming who frames it (and the language it shows, for alert e-mails).
      expect(sessionBodies).toEqual([{ parentOrigin: bank.partnerPage.url, locale: 'en' }]);
    });
  });
});
