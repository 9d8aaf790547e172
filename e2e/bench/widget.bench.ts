/**
 * `pnpm bench:widget`: the widget's sizes, and the time from creating the iframe to the score being
 * visible, on the real API in this process and Debian's Chromium. Numbers to watch, not assertions.
 */
import { launchBrowser, openPage } from '../src/browser.ts';
import { assertBuilt } from '../src/built-files.ts';
import { createWidget, partnerPageHtml, widgetFrame } from '../src/pages.ts';
import { createPartner, servePage, startApi } from '../src/servers.ts';
import { formatSizes, measureSizes } from '../src/sizes.ts';
import { enrolActiveUser, JANE, newExternalUserId } from '../src/users.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

const main = async () => {
  assertBuilt();
  console.log(formatSizes(measureSizes()));

  const [browser, app] = await Promise.all([launchBrowser(), startApi()]);
  const partner = await createPartner(app, ['http://localhost:*']);
  const partnerPage = await servePage('localhost', () => partnerPageHtml(app.url));
  const timings: number[] = [];
  try {
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
  } finally {
    await browser.close();
    await partnerPage.close();
    await app.close();
  }
  const sorted = [...timings].sort((a, b) => a - b);
  console.log(`iframe created → score visible, ${RUNS} runs (cold context each):`);
  console.log(`  median ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms`);
  console.log(`  runs: ${timings.map((t) => t.toFixed(0)).join(', ')} ms`);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
