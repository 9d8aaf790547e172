// @vitest-environment happy-dom
import type { TOffer } from '@credit/contract';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { OffersPanel } from '../src/offers/OffersPanel.tsx';
import { AUTO_LOAN_ID, REPORT } from './credit-report-fixture.ts';
import { type Answer, fakeApi, renderPanel, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

const offer = (offerId: string, name: string, estimatedSavings: TOffer['estimatedSavings'] = null): TOffer => ({
  offerId,
  type: 'loan',
  provider: 'Fabrikam Credit Union',
  name,
  description: 'A loan.',
  apr: { min: 6.9, max: 6.9, type: 'fixed' },
  creditLimit: { min: 5000, max: 40_000 },
  annualFee: 0,
  signupBonus: null,
  preQualified: true,
  applicationUrl: 'https://apply.example.com/fabrikam',
  expiresAt: '2027-01-31T00:00:00Z',
  estimatedSavings,
});

const saving = (monthly: number, total: number) => ({ monthly, total, comparedToAccountId: AUTO_LOAN_ID, offeredApr: 6.9 });

/** In the API's order: offers that save money first, the largest total first. */
const OFFERS = [
  offer('off_refi000000001', 'Auto Refinance', saving(48, 1730)),
  offer('off_small00000001', 'Small Saver', saving(12, 430)),
  offer('off_plain00000001', 'Starter Loan'),
];

const showOffers = async (report: () => Answer, locale: 'en' | 'es' = 'en') => {
  const { api, requests } = fakeApi({
    'GET /v1/users/usr_1/offers?limit=50': () => ({ data: OFFERS }),
    'GET /v1/users/usr_1/credit-report': report,
  });
  page = await renderPanel(createElement(OffersPanel, { userId: 'usr_1' }), { api, locale });
  const host = page.host;
  await settle(() => host.querySelectorAll('li.cw-offer').length === 3);
  return { host, requests };
};

describe('offers that save money', () => {
  it('say what they save against which account on the credit report, in the API’s order', async () => {
    const { host, requests } = await showOffers(() => ({ data: REPORT }));
    await settle(() => textOf(host.querySelector('.cw-offer__savings')).includes('Contoso'));
    expect([...host.querySelectorAll('li.cw-offer h3')].map(textOf)).toEqual(['Auto Refinance', 'Small Saver', 'Starter Loan']);
    expect(textOf(host.querySelector('.cw-offer__savings'))).toBe(
      'Save about $48 a month ($1,730 in total) against your Contoso Auto Finance auto loan. At 6.9% APR instead of the 11.4% you pay now.',
    );
    expect(host.querySelectorAll('.cw-offer__savings')).toHaveLength(2);
    expect(requests.filter((r) => r.path.endsWith('/credit-report'))).toHaveLength(1);
  });

  it('still say what they save when the report cannot be had', async () => {
    const esPercent = new Intl.NumberFormat('es-US', { style: 'percent', maximumFractionDigits: 2 }).format(0.069);
    const { host } = await showOffers(
      () => ({ status: 503, error: { code: 'SERVICE_UNAVAILABLE', message: 'The bureau is not answering.' } }),
      'es',
    );
    expect(textOf(host.querySelector('.cw-offer__savings'))).toBe(
      `Ahorre unos $48 al mes ($1,730 en total) frente a una cuenta de su informe de crédito. Con una tasa anual (APR) de ${esPercent} según su puntaje.`,
    );
  });
});
