/**
 * `pnpm bench:widget`: the widget's sizes (gzipped on disk, and as the API serves them over HTTP with brotli
 * and gzip), the time from creating the iframe to the score being visible, and the demo page's CLS on desktop
 * and mobile, on the real API in this process (e2e's helpers, without the test runner) and Debian's Chromium.
 * Numbers to watch, not assertions; BENCH_RUNS (5) cold runs each.
 */
import type { Browser } from 'playwright-core';
import { type Device, launchBrowser, openPage } from '../e2e/src/browser.ts';
import { assertBuilt } from '../e2e/src/built-files.ts';
import { type ClsReport, measureCls } from '../e2e/src/cls.ts';
import { createWidget, partnerPageHtml, shownScore, widgetFrame } from '../e2e/src/pages.ts';
import { formatServedAssets, measureServedAssets } from '../e2e/src/served.ts';
import {
  createPartner,
  type Partner,
  type RunningServer,
  servePage,
  startApi,
  startDemo,
  type TestApp,
} from '../e2e/src/servers.ts';
import { formatSizes, measureSizes } from '../e2e/src/sizes.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../e2e/src/users.ts';
import { envInt, median, openBenchDb, percentile } from './common.ts';

const RUNS = envInt('BENCH_RUNS', 5);

/** One cold visit per run and device to the demo bank's page for a verified customer, until the score shows. */
const measureDemoCls = async (browser: Browser, app: TestApp, partner: Partner, demo: RunningServer) => {
  const reports: Record<Device, ClsReport[]> = { desktop: [], mobile: [] };
  for (let run = 0; run < RUNS; run += 1) {
    for (const device of ['desktop', 'mobile'] as const) {
      const externalUserId = newExternalUserId('bench-cls');
      await enrolActiveUser(app, partner.accessToken, externalUserId);
      const { context, page } = await openPage(browser, device);
      try {
        reports[device].push(
          await measureCls(page, `${demo.url}/?user=${externalUserId}`, () =>
            shownScore(widgetFrame(page), JANE.score).waitFor({ timeout: 30_000 }),
          ),
        );
      } finally {
        await context.close();
      }
    }
  }
  return reports;
};

const formatClsRuns = (reports: Record<Device, ClsReport[]>) => [
  `demo page CLS, load → score visible, median of ${RUNS} runs (host page + in the frame; budget < 0.1):`,
  ...(['desktop', 'mobile'] as const).map((device) => {
    const runs = reports[device];
    const pick = (key: 'total' | 'host' | 'frame') => median(runs.map((r) => r[key])).toFixed(3);
    return `  ${device}: ${pick('total')} (host ${pick('host')}, frame ${pick('frame')}); runs: ${runs.map((r) => r.total.toFixed(3)).join(', ')}`;
  }),
];

const main = async () => {
  assertBuilt();
  console.log(formatSizes(measureSizes()));

  const [browser, app] = await Promise.all([launchBrowser(), openBenchDb().then(startApi)]);
  const partner = await createPartner(app, ['http://localhost:*']);
  const [partnerPage, demo] = await Promise.all([
    servePage('localhost', () => partnerPageHtml(app.url)),
    startDemo(app, partner),
  ]);
  const timings: number[] = [];
  let cls: Record<Device, ClsReport[]>;
  try {
    console.log(formatServedAssets(await measureServedAssets(app.url)));
    for (let run = 0; run < RUNS; run += 1) {
      const externalUserId = newExternalUserId('bench');
      await enrolActiveUser(app, partner.accessToken, externalUserId);
      const userToken = await app.userToken(partner.accessToken, externalUserId, {
        firstName: JANE.firstName,
        lastName: JANE.lastName,
      });
      // A fresh context each run: a first visit, nothing cached.
      const { context, page } = await openPage(browser, 'desktop');
      await page.goto(partnerPage.url);
      const started = performance.now();
      await createWidget(page, { userToken });
      await widgetFrame(page).getByText(String(JANE.score)).first().waitFor({ timeout: 30_000 });
      timings.push(performance.now() - started);
      await context.close();
    }
    cls = await measureDemoCls(browser, app, partner, demo);
  } finally {
    await browser.close();
    await partnerPage.close();
    await demo.close();
    await app.close();
  }
  console.log(`iframe created → score visible, ${RUNS} runs (cold context each):`);
  console.log(`  median ${median(timings).toFixed(0)} ms, p95 ${percentile(timings, 0.95).toFixed(0)} ms`);
  console.log(`  runs: ${timings.map((t) => t.toFixed(0)).join(', ')} ms`);
  for (const line of formatClsRuns(cls)) console.log(line);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
