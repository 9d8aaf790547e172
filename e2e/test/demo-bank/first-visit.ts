import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '../../src/browser.ts';
import { EMBED_SCRIPT, WIDGET_DIST } from '../../src/built-files.ts';
import { CLS_BUDGET, formatCls, measureCls } from '../../src/cls.ts';
import type { DemoBank } from '../../src/demo-bank.ts';
import { watchFailures } from '../../src/failures.ts';
import { shownScore, submitJaneEnrolment, widgetFrame } from '../../src/pages.ts';
import { type RecordingProxy, startRecordingProxy } from '../../src/recording-proxy.ts';
import { runJourney } from '../../src/screen-check.ts';
import { ENCODINGS, formatServedAssets, measureServedAssets } from '../../src/served.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../../src/users.ts';

/** Time for a request still under way when the screen showed to answer (and to fail, if it does). */
const SETTLE_MS = 500;
/** Chromium asks for `/favicon.ico` shortly after the load event; this is ample for it to have asked. */
const FAVICON_GRACE_MS = 1_000;

export const firstVisitJourneys = (bank: DemoBank) =>
  describe("a customer's first visit", () => {
    /** The API behind a proxy that records what reached it, for what Playwright cannot see (the favicon). */
    let proxy: RecordingProxy;

    beforeAll(async () => {
      proxy = await startRecordingProxy(bank.app.url);
    });
    afterAll(async () => {
      await proxy?.close();
    });

    for (const device of ['desktop', 'mobile'] as const satisfies Device[]) {
      it(`keeps the demo page's layout shift under ${CLS_BUDGET} on ${device} until the score shows`, {
        timeout: 45_000,
      }, async () => {
        const externalUserId = newExternalUserId(`cls-${device}`);
        await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
        await runJourney(bank.browser, device, `cls-${device}`, async ({ page }) => {
          const cls = await measureCls(page, `${bank.demo.url}/?user=${externalUserId}`, () =>
            shownScore(widgetFrame(page), JANE.score).waitFor(),
          );
          console.log(`${device}: ${formatCls(cls)}`);
          expect(cls.total, formatCls(cls)).toBeLessThan(CLS_BUDGET);
        });
      });
    }

    it('shows a brand-new customer the enrolment and the questions without a console error or a failed request', {
      timeout: 45_000,
    }, async () => {
      await runJourney(bank.browser, 'desktop', 'new-customer-clean', async ({ page, context }) => {
        const failures = watchFailures(context);
        await page.goto(`${bank.demo.url}/?user=${newExternalUserId('first-visit')}`);
        const frame = widgetFrame(page);
        await frame.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
        await page.waitForTimeout(SETTLE_MS);
        expect(failures, 'before enrolling').toEqual([]);

        await submitJaneEnrolment(frame);
        await frame.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
        await frame.getByRole('button', { name: 'Start verification' }).click();
        await frame.getByText(/^Question 1 of \d+$/).waitFor();
        await page.waitForTimeout(SETTLE_MS);
        expect(failures, 'through enrolment to the first question').toEqual([]);
      });
    });

    it('asks for no /favicon.ico in the webview mode (and fails no request)', { timeout: 30_000 }, async () => {
      const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('webview-icon'));
      await runJourney(bank.browser, 'mobile', 'webview-favicon', async ({ page, context }) => {
        const failures = watchFailures(context);
        await page.goto(`${proxy.url}/widget#userToken=${encodeURIComponent(userToken)}`);
        await page.getByRole('heading', { name: 'Set up your credit score' }).waitFor();
        await page.waitForLoadState('load');
        await page.waitForTimeout(FAVICON_GRACE_MS);
        expect(
          proxy.requests.filter((request) => request.startsWith('GET /widget')).length,
          'the page came through the proxy',
        ).toBeGreaterThan(0);
        expect(proxy.requests.filter((request) => /^GET \/favicon\.ico\b/.test(request))).toEqual([]);
        expect(failures).toEqual([]);
      });
    });

    it("lands Apply in the sandbox on the API's own landing page, which loads", { timeout: 45_000 }, async () => {
      const externalUserId = newExternalUserId('apply');
      await enrolActiveUser(bank.app, bank.partner.accessToken, externalUserId);
      await runJourney(bank.browser, 'desktop', 'apply-landing', async ({ page, context }) => {
        const documents: Response[] = [];
        context.on('response', (response) => {
          if (response.request().isNavigationRequest()) documents.push(response);
        });
        await page.goto(`${bank.demo.url}/?user=${externalUserId}`);
        const frame = widgetFrame(page);
        await frame.getByRole('tab', { name: /offers/i }).click();
        const apply = frame.getByRole('button', { name: /apply/i }).first();
        await apply.waitFor();
        const [popup] = await Promise.all([context.waitForEvent('page'), apply.click()]);
        // The window opens blank (in the click) and is sent to the application once the API recorded the click.
        await popup.waitForURL(/^https?:/);
        await popup.waitForLoadState('load');

        const landed = new URL(popup.url());
        expect(landed.hostname, `Apply opened ${landed.href}`).not.toMatch(/\.example$/);
        expect(landed.origin, 'served by the API').toBe(new URL(bank.app.url).origin);
        const answer = documents.filter((response) => response.url() === popup.url()).at(-1);
        expect(answer?.status(), `the landing page ${landed.href}`).toBe(200);
        await expect.poll(() => visibleHeadings(popup), { message: 'the landing page shows something' }).not.toEqual([]);
      });
    });

    it('serves embed.js and the first-load JS and CSS precompressed, as brotli or gzip on request', async () => {
      const assets = await measureServedAssets(bank.app.url);
      console.log(formatServedAssets(assets));
      const onDisk = (assetPath: string) =>
        assetPath === '/embed.js' ? EMBED_SCRIPT : path.join(WIDGET_DIST, assetPath.replace(/^\/widget\//, ''));
      const decode = { br: brotliDecompressSync, gzip: gunzipSync };
      for (const asset of assets) {
        for (const encoding of ENCODINGS) {
          const served = asset.served[encoding];
          expect(served.status, `${asset.path} (${encoding})`).toBe(200);
          expect(served.contentEncoding, `${asset.path} asked for ${encoding}`).toBe(encoding);
          expect(served.vary, `${asset.path}: caches must keep the encodings apart`).toMatch(/accept-encoding/i);
          expect(
            decode[encoding](served.body).equals(readFileSync(onDisk(asset.path))),
            `${asset.path} (${encoding}) is the built file`,
          ).toBe(true);
        }
        if (asset.kind !== 'loader') expect(asset.served.br.cacheControl, `${asset.path}: hashed name`).toMatch(/\bimmutable\b/);
      }
    });
  });

const visibleHeadings = (page: Page) =>
  page
    .getByRole('heading')
    .filter({ visible: true })
    .allTextContents()
    .catch(() => []);
