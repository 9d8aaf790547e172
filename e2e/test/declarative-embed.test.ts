import { describe, expect, it } from 'vitest';
import { useDemoBank } from '../src/demo-bank.ts';
import { widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { servePage } from '../src/servers.ts';
import { newExternalUserId } from '../src/users.ts';

/** The "without JavaScript of your own" embed of docs/partner/widget.md: the element's data attributes, then the loader. */
const declarativePage = (apiUrl: string, userToken: string) => `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Banco</title></head>
<body>
<main>
<h1>Su crédito</h1>
<div data-credit-widget data-user-token="${userToken}" data-token-url="/credit/token"
     data-view="score" data-locale="es" data-brand-color="#b3261e" data-color-scheme="dark"
     data-radius="12" data-font-family="system-ui"></div>
</main>
<script src="${apiUrl}/embed.js"></script>
</body>
</html>`;

describe('the declarative embed', () => {
  const bank = useDemoBank({ demo: false });

  it('starts one widget from the data attributes, in the language they name, with no script of the page', async () => {
    // The partner's server writes the token into its page (never into a URL, where logs and referrers would keep it).
    const userToken = await bank.app.userToken(bank.partner.accessToken, newExternalUserId('declarative'));
    const page$ = await servePage('localhost', () => declarativePage(bank.app.url, userToken));
    try {
      await runJourney(bank.browser, 'desktop', 'declarative-embed', async ({ page }) => {
        await page.goto(page$.url);
        await widgetFrame(page).getByRole('heading', { name: 'Configure su puntaje de crédito' }).waitFor();
        expect(await page.locator('[data-credit-widget] iframe').count()).toBe(1);
        // Handed to the frame, the token is gone from the page: another script on it cannot read it.
        expect(await page.locator('[data-credit-widget]').getAttribute('data-user-token')).toBeNull();
        expect(await page.content()).not.toContain(userToken);
        // Scanning again (as a page adding elements later would) starts nothing twice.
        await page.evaluate(() => window.CreditWidget?.scan(document));
        expect(await page.locator('iframe').count()).toBe(1);
      });
    } finally {
      await page$.close();
    }
  });
});
