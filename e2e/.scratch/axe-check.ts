import { AxeBuilder } from '@axe-core/playwright';
import { launchBrowser, openPage } from '../src/browser.ts';
import { createWidget, partnerPageHtml, widgetFrame } from '../src/pages.ts';
import { createPartner, servePage, startApi } from '../src/servers.ts';
const main = async () => {
  const [browser, app] = await Promise.all([launchBrowser(), startApi()]);
  const partner = await createPartner(app, ['http://localhost:*']);
  const pageServer = await servePage('localhost', () => partnerPageHtml(app.url));
  const { page } = await openPage(browser);
  await page.goto(pageServer.url);
  await createWidget(page, { userToken: await app.userToken(partner.accessToken, 'axe-1') });
  await widgetFrame(page).getByRole('heading', { name: 'Set up your credit score' }).waitFor();
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const nested = r.passes.flatMap((p) => p.nodes.map((n) => n.target)).filter((t) => t.length > 1);
  console.log('passes', r.passes.length, 'nested targets', nested.length, JSON.stringify(nested.slice(0, 3)));
  await browser.close(); await pageServer.close(); await app.close();
};
main();
