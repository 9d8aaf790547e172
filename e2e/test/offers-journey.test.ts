import type { TCreditReportAccount, TOffer } from '@credit/contract';
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEVICES } from '../src/browser.ts';
import { useDemoBank } from '../src/demo-bank.ts';
import { sidewaysOverflow } from '../src/overflow.ts';
import { hostEvents, openDashboardTab, shownScore, widgetFrame } from '../src/pages.ts';
import { runJourney } from '../src/screen-check.ts';
import { enrolActiveUserWithSavings, type SaverUser } from '../src/users.ts';

/** The demo partner's name as the sandbox start command creates it: its sample catalogue is "Maple Bank …" offers. */
const DEMO_CLIENT_NAME = 'Maple Bank (demo partner)';
const PROVIDER = 'Maple Bank';
const NARROW = { width: 320, height: 800 };
const PHONE = DEVICES.mobile.viewport as { width: number; height: number };

type Savings = NonNullable<TOffer['estimatedSavings']>;

const LOCALES = {
  en: {
    tab: 'Offers',
    heading: 'Offers for you',
    preQualified: 'Pre-qualified',
    reasons: 'What this offer asks for',
    yourApr: 'Your APR',
    intl: 'en-US',
    scoreReason: (score: number, min: number) => `Your score is ${score}, at least ${min} needed`,
    savings: {
      lower_payment_and_cost: (m: string, t: string) => `Lower your payment by ${m} a month and pay ${t} less overall`,
      lower_cost_higher_payment: (m: string, t: string) => `Pay ${t} less overall; your payment rises by ${m} a month`,
      lower_payment_higher_cost: (m: string, t: string) => `Lower your payment by ${m} a month; you pay ${t} more overall`,
    },
  },
  es: {
    tab: 'Ofertas',
    heading: 'Ofertas para usted',
    preQualified: 'Precalificado',
    reasons: 'Lo que pide esta oferta',
    yourApr: 'Su tasa anual (APR)',
    intl: 'es-US',
    scoreReason: (score: number, min: number) => `Su puntaje es ${score}; se pide al menos ${min}`,
    savings: {
      lower_payment_and_cost: (m: string, t: string) => `Reduzca su pago en ${m} al mes y pague ${t} menos en total`,
      lower_cost_higher_payment: (m: string, t: string) => `Pague ${t} menos en total; su pago sube ${m} al mes`,
      lower_payment_higher_cost: (m: string, t: string) => `Reduzca su pago en ${m} al mes; paga ${t} más en total`,
    },
  },
} as const;
type Locale = keyof typeof LOCALES;

/** How the English sentence names the account compared: "compared with your Wide World Bank credit card". */
const comparedWith = (account: TCreditReportAccount) =>
  `compared with your ${account.creditor} ${account.type.replace('_', ' ')}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole dollars with separators, as the widget writes amounts. */
const usd = (value: number, locale: Locale) =>
  new Intl.NumberFormat(LOCALES[locale].intl, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(value);

/** The start of the savings sentence the figures call for (the "longer term" clause, when due, follows it). */
const savingsClaim = (savings: Savings, locale: Locale): string => {
  const monthly = usd(Math.abs(Math.round(savings.monthlyChange)), locale);
  const total = usd(Math.abs(Math.round(savings.totalCostChange)), locale);
  return LOCALES[locale].savings[savings.verdict](monthly, total);
};

/** An offer's card in the Offers tab, by its heading. */
const offerCard = (frame: FrameLocator, offer: TOffer) =>
  frame
    .getByRole('tabpanel')
    .getByRole('listitem')
    .filter({ has: frame.getByRole('heading', { level: 3, name: offer.name, exact: true }) });

/**
 * The demo bank's Offers tab for a customer with costly credit (sandbox story 1004): a pre-qualified offer of the
 * bank's own catalogue with its reasons, the customer's rate band, an honest saving, and Apply through the click.
 */
describe('the bank’s own offers, as its customer sees them', () => {
  const bank = useDemoBank({ clientName: DEMO_CLIENT_NAME });

  /** The customer and the offer the journeys follow: the first pre-qualified offer that states a saving. */
  const saverWithOffer = async (prefix: string): Promise<SaverUser & { offer: TOffer; savings: Savings }> => {
    const saver = await enrolActiveUserWithSavings(bank.app, bank.partner.accessToken, prefix);
    const offer = saver.offers.find(
      (candidate) =>
        candidate.preQualified &&
        candidate.estimatedSavings &&
        Math.round(candidate.estimatedSavings.monthlyChange) !== 0 &&
        Math.round(candidate.estimatedSavings.totalCostChange) !== 0,
    );
    if (!offer?.estimatedSavings) throw new Error(`no pre-qualified offer with a saving: ${JSON.stringify(saver.offers)}`);
    return { ...saver, offer, savings: offer.estimatedSavings };
  };

  const openOffers = async (page: Page, externalUserId: string, userId: string, locale: Locale = 'en') => {
    const { score } = await bank.sdk.call('getCreditScore', { params: { userId } });
    await page.goto(`${bank.demo.url}/?user=${externalUserId}&locale=${locale}`);
    const frame = widgetFrame(page);
    await shownScore(frame, score).waitFor();
    await openDashboardTab(frame, LOCALES[locale].tab, LOCALES[locale].heading);
    return { frame, score };
  };

  it('shows a pre-qualified Maple Bank offer with its reasons, rate and saving; Apply opens the click’s page; the card is counted', {
    timeout: 120_000,
  }, async () => {
    const { externalUserId, userId, offer, savings } = await saverWithOffer('offers');
    expect(offer.provider).toBe(PROVIDER);
    expect(offer.name.startsWith(`${PROVIDER} `), offer.name).toBe(true);
    const report = await bank.sdk.call('getCreditReport', { params: { userId } });
    const account = report.accounts.find((candidate) => candidate.accountId === savings.comparedToAccountId);
    if (!account) throw new Error(`the saving is against ${savings.comparedToAccountId}, which the report does not list`);
    const qualification = offer.qualification;
    const tierApr = qualification?.apr;
    if (!qualification || tierApr == null) throw new Error(`a pre-qualified offer without a rate band: ${JSON.stringify(offer)}`);

    await runJourney(bank.browser, 'desktop', 'offers-maple-bank', async ({ page, context, audit }) => {
      const impressionSent = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/offers/impressions'),
        { timeout: 30_000 },
      );
      const { frame, score } = await openOffers(page, externalUserId, userId);
      const card = offerCard(frame, offer);
      await card.scrollIntoViewIfNeeded();
      await card.getByText(new RegExp(`^✓\\s*${LOCALES.en.preQualified}$`)).waitFor();
      await card.getByText(`${PROVIDER} · `).waitFor();
      // Seen for a second while nothing else moves the page, the card is sent in a batch.
      const sent = await impressionSent;

      // The customer's own band: "Your APR" and its rate, as the API gave it.
      const rate = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 2 }).format(tierApr / 100);
      await expect
        .poll(() => card.locator(`dt:text-is("${LOCALES.en.yourApr}") + dd`).textContent())
        .toBe(`${rate} ${offer.apr.type}`);

      // Every reason, each said in words and marked met: the score one built from its figures.
      const reasons = card.getByRole('list', { name: LOCALES.en.reasons }).getByRole('listitem');
      await expect.poll(() => reasons.count()).toBe(qualification.reasons.length);
      expect(await reasons.filter({ hasText: 'Not met:' }).count(), 'a pre-qualified offer meets every rule').toBe(0);
      if (offer.rules.minScore !== undefined && offer.rules.maxScore === undefined) {
        await reasons.filter({ hasText: LOCALES.en.scoreReason(score, offer.rules.minScore) }).waitFor();
      }

      // The saving, in whole dollars, against the account on the report, named once the report arrives.
      const sentence = card.locator('.cw-offer__savings');
      await expect.poll(() => sentence.textContent()).toContain(savingsClaim(savings, 'en'));
      await expect.poll(() => sentence.textContent()).toContain(comparedWith(account));

      await audit.check('offers-maple-bank');

      // The card seen is counted in the bank's results.
      expect((sent.postDataJSON() as { offerIds: string[] }).offerIds).toContain(offer.offerId);
      const today = bank.app.clock.now().toISOString().slice(0, 10);
      await expect
        .poll(async () => {
          const results = await bank.sdk.call('getProgramResults', {
            query: { from: today, to: today, offerId: offer.offerId },
          });
          return results.offers.find((row) => row.offerId === offer.offerId)?.impressions ?? 0;
        })
        .toBeGreaterThanOrEqual(1);

      // Apply: the click is recorded, then the window opened in the gesture lands on the click's own page.
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        card.getByRole('button', { name: new RegExp(`^Apply for ${escapeRegExp(offer.name)}`) }).click(),
      ]);
      const landing = new RegExp(`/sandbox/apply/${offer.offerId}\\?clickId=clk_[A-Za-z0-9]+$`);
      await popup.waitForURL(landing);
      await popup.getByRole('heading', { level: 1, name: new RegExp(escapeRegExp(offer.name)) }).waitFor();
      const clickId = new URL(popup.url()).searchParams.get('clickId') ?? '';
      await expect
        .poll(async () => (await hostEvents(page)).find((event) => event.name === 'offer_clicked')?.data)
        .toEqual({ userId, offerId: offer.offerId, clickId, url: popup.url() });
      const click = await bank.sdk.call('getOfferClick', { params: { clickId } });
      expect(click).toMatchObject({ offerId: offer.offerId, userId, stage: 'clicked' });
      await popup.close();

      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });

  it('fits the Offers tab at 320 px, in English and Spanish, without axe violations', { timeout: 120_000 }, async () => {
    const { externalUserId, userId, offer, savings } = await saverWithOffer('offers-narrow');

    await runJourney(bank.browser, 'mobile', 'offers-narrow', async ({ page, audit }) => {
      const overflows: string[] = [];
      for (const locale of ['en', 'es'] as const) {
        const { frame, score } = await openOffers(page, externalUserId, userId, locale);
        await page.setViewportSize(NARROW);
        const card = offerCard(frame, offer);
        await card.scrollIntoViewIfNeeded();
        await card.getByText(new RegExp(`^✓\\s*${LOCALES[locale].preQualified}$`)).waitFor();
        await expect.poll(() => card.locator('.cw-offer__savings').textContent()).toContain(savingsClaim(savings, locale));
        if (offer.rules.minScore !== undefined && offer.rules.maxScore === undefined) {
          await card
            .getByRole('list', { name: LOCALES[locale].reasons })
            .getByText(LOCALES[locale].scoreReason(score, offer.rules.minScore))
            .waitFor();
        }
        await card.locator(`dt:text-is("${LOCALES[locale].yourApr}")`).waitFor();

        const { host, frame: inFrame } = await sidewaysOverflow(page);
        if (host > 0) overflows.push(`${locale}: the bank's page scrolls ${host} px sideways`);
        if (inFrame > 0) overflows.push(`${locale}: the widget's frame scrolls ${inFrame} px sideways`);
        await audit.check(`offers-narrow-${locale}`, { screenshot: locale === 'en' });
        await page.setViewportSize(PHONE);
      }
      expect.soft(overflows, overflows.join('\n')).toEqual([]);
      expect.soft(audit.failures, audit.report()).toEqual([]);
    });
  });
});
