// @vitest-environment happy-dom
import type { TOffer } from '@credit/contract';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../src/i18n/index.ts';
import { savingsClaim, savingsText } from '../src/offers/explain.ts';
import { messages } from '../src/offers/messages.ts';
import { OffersPanel } from '../src/offers/OffersPanel.tsx';
import { REPORT } from './credit-report-fixture.ts';
import { offer, saving } from './offers-fixture.ts';
import { type Answer, fakeApi, renderPanel, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

/** In the API's order: offers that save money first, the largest total first. */
const OFFERS = [
  offer({ estimatedSavings: saving() }),
  offer({
    offerId: 'off_small00000001',
    name: 'Small Saver',
    estimatedSavings: saving({ monthlyChange: -12.2, totalCostChange: -430, fees: 612.5 }),
  }),
  offer({ offerId: 'off_plain00000001', name: 'Starter Loan' }),
];

const showOffers = async (offers: TOffer[], report: () => Answer, locale: 'en' | 'es' = 'en') => {
  const { api, requests } = fakeApi({
    'GET /v1/users/usr_1/offers?limit=50': () => ({ data: offers }),
    'GET /v1/users/usr_1/credit-report': report,
  });
  page = await renderPanel(createElement(OffersPanel, { userId: 'usr_1' }), { api, locale });
  const host = page.host;
  await settle(() => host.querySelectorAll('li.cw-offer').length === offers.length);
  return { host, requests };
};

const en = messages.en;
const es = messages.es;
const enFormats = createI18n('en');
const esFormats = createI18n('es');

describe('what an offer would save, in words', () => {
  it('names the account on the report, and the fees counted in', async () => {
    const { host, requests } = await showOffers(OFFERS, () => ({ data: REPORT }));
    await settle(() => textOf(host.querySelector('.cw-offer__savings')).includes('Contoso'));
    expect([...host.querySelectorAll('li.cw-offer h3')].map(textOf)).toEqual([
      'Maple Bank Auto Refinance',
      'Small Saver',
      'Starter Loan',
    ]);
    const [first, second] = [...host.querySelectorAll('.cw-offer__savings')].map(textOf);
    expect(first).toBe(
      'Lower your payment by $84 a month and pay $2,210 less overall, compared with your Contoso Auto Finance auto loan at 11.4%.',
    );
    expect(second).toBe(
      'Lower your payment by $12 a month and pay $430 less overall, compared with your Contoso Auto Finance auto loan at 11.4%. ' +
        'Fees of $613 are included.',
    );
    expect(host.querySelectorAll('.cw-offer__savings')).toHaveLength(2);
    expect(requests.filter((r) => r.path.endsWith('/credit-report'))).toHaveLength(1);
  });

  it('still says what it saves when the report cannot be had, in Spanish', async () => {
    const { host } = await showOffers(
      OFFERS,
      () => ({ status: 503, error: { code: 'SERVICE_UNAVAILABLE', message: 'The bureau is not answering.' } }),
      'es',
    );
    await settle(() => host.querySelector('.cw-offer__savings') !== null);
    expect(textOf(host.querySelector('.cw-offer__savings'))).toBe(
      'Reduzca su pago en $84 al mes y pague $2,210 menos en total, frente a una cuenta de su informe de crédito.',
    );
  });

  it('asks for no report and shows no saving when the figures round to none', async () => {
    const flat = [offer({ estimatedSavings: saving({ monthlyChange: -0.4, totalCostChange: 0.3 }) })];
    const { host, requests } = await showOffers(flat, () => ({ data: REPORT }));
    expect(host.querySelector('.cw-offer__savings')).toBeNull();
    expect(requests.some((r) => r.path.endsWith('/credit-report'))).toBe(false);
  });

  it('says which way each figure goes for each verdict, in whole dollars with separators', () => {
    const text = (changes: Parameters<typeof saving>[0], t = en, formats = enFormats) => savingsText(saving(changes), t, formats);
    expect(text({ verdict: 'lower_cost_higher_payment', monthlyChange: 98.6, totalCostChange: -13_917.8 })).toBe(
      'Pay $13,918 less overall; your payment rises by $99 a month',
    );
    expect(
      text({
        verdict: 'lower_payment_higher_cost',
        monthlyChange: -136.4,
        totalCostChange: 932.9,
        currentRemainingMonths: 48,
        offerTermMonths: 60,
      }),
    ).toBe('Lower your payment by $136 a month; you pay $933 more overall over the longer term');
    // Same term: the extra cost is not the longer term's, so the sentence does not say it is.
    expect(text({ verdict: 'lower_payment_higher_cost', monthlyChange: -136.4, totalCostChange: 932.9 })).toBe(
      'Lower your payment by $136 a month; you pay $933 more overall',
    );
    expect(text({ verdict: 'lower_cost_higher_payment', monthlyChange: 98.6, totalCostChange: -13_917.8 }, es, esFormats)).toBe(
      'Pague $13,918 menos en total; su pago sube $99 al mes',
    );
    expect(
      text(
        { verdict: 'lower_payment_higher_cost', monthlyChange: -136.4, totalCostChange: 932.9, offerTermMonths: 60 },
        es,
        esFormats,
      ),
    ).toBe('Reduzca su pago en $136 al mes; paga $933 más en total por el plazo más largo');
  });

  it('never claims a saving the figures do not show, whatever the verdict says', () => {
    // A payment change under 50 cents is "about the same", not a lower payment.
    expect(savingsClaim({ monthlyChange: 0.3, totalCostChange: -500 })).toBe('lower_cost_same_payment');
    expect(savingsClaim({ monthlyChange: -40, totalCostChange: -0.2 })).toBe('lower_payment_same_cost');
    expect(savingsClaim({ monthlyChange: 5, totalCostChange: 10 })).toBeNull();
    expect(
      savingsText(saving({ verdict: 'lower_payment_and_cost', monthlyChange: 12, totalCostChange: 80 }), en, enFormats),
    ).toBe(null);
    expect(savingsText(saving({ monthlyChange: 0.3, totalCostChange: -500 }), en, enFormats)).toBe(
      'Pay $500 less overall; your payment stays about the same',
    );
  });
});
