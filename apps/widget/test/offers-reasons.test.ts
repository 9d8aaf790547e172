// @vitest-environment happy-dom
import type { TOffer } from '@credit/contract';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../src/i18n/index.ts';
import { reasonText } from '../src/offers/explain.ts';
import { messages } from '../src/offers/messages.ts';
import { OffersPanel } from '../src/offers/OffersPanel.tsx';
import { offer, reason } from './offers-fixture.ts';
import { fakeApi, renderPanel, settle, textOf } from './panel-harness.tsx';

let page: Awaited<ReturnType<typeof renderPanel>> | undefined;
afterEach(async () => {
  await page?.unmount();
  page = undefined;
});

type Reason = Parameters<typeof reasonText>[0];
const say = (r: Reason, locale: 'en' | 'es' = 'en', on: TOffer = offer()) =>
  reasonText(r, on, messages[locale], createI18n(locale));

describe('the reasons an offer gives, in words the customer reads', () => {
  it('says the score against the bound the offer sets, in English and Spanish', () => {
    const score = reason({ rule: 'score', met: true, actual: 712, required: 680 });
    const atLeast = offer({ rules: { minScore: 680 } });
    expect(say(score, 'en', atLeast)).toBe('Your score is 712, at least 680 needed');
    expect(say(score, 'es', atLeast)).toBe('Su puntaje es 712; se pide al menos 680');
    const atMost = offer({ rules: { maxScore: 680 } });
    expect(say({ ...score, met: false, required: 680 }, 'en', atMost)).toBe('Your score is 712, at most 680 allowed');
    const between = offer({ rules: { minScore: 600, maxScore: 700 } });
    expect(say({ ...score, met: false, required: '600-700' }, 'es', between)).toBe('Su puntaje es 712; se pide entre 600 y 700');
  });

  it('reads utilization, file age, late payments and states', () => {
    expect(say(reason({ rule: 'utilization', met: true, actual: 34.5, required: 50 }))).toBe(
      'You use 34.5% of your card limits, at most 50% allowed',
    );
    expect(say(reason({ rule: 'utilization', met: true, actual: null, required: 50 }), 'es')).toBe(
      'No tiene tarjetas de crédito abiertas; se permite un uso de hasta el 50%',
    );
    expect(say(reason({ rule: 'file_age', met: true, actual: 97, required: 24 }))).toBe(
      'Your oldest account is 8 years old, at least 2 years needed',
    );
    expect(say(reason({ rule: 'file_age', met: false, actual: 17, required: 18 }), 'es')).toBe(
      'Su cuenta más antigua tiene 17 meses; se piden al menos 18 meses',
    );
    expect(say(reason({ rule: 'delinquency', met: true, actual: null, required: 12 }))).toBe(
      'No late payments in the last 12 months',
    );
    expect(say(reason({ rule: 'delinquency', met: false, actual: 3, required: 12 }))).toBe(
      'A payment was late 3 months ago, none in the last 12 months allowed',
    );
    expect(say(reason({ rule: 'delinquency', met: false, actual: 1, required: 12 }), 'es')).toBe(
      'Un pago se atrasó hace 1 mes; no se permite ninguno en los últimos 12 meses',
    );
    expect(say(reason({ rule: 'state', met: true, actual: 'IL', required: 'IL,WI' }))).toBe('Offered in your state (IL)');
    expect(say(reason({ rule: 'state', met: false, actual: 'CA', required: 'IL,WI' }))).toBe(
      'Offered only in IL or WI; your address is in CA',
    );
    expect(say(reason({ rule: 'state', met: false, actual: 'CA', required: 'IL,WI' }), 'es')).toBe(
      'Solo se ofrece en IL o WI; su dirección está en CA',
    );
  });

  it('reads the refinance rule and the rate band from the offer', () => {
    const consolidation = offer({
      rules: { minScore: 660, refinance: { accountKinds: ['credit_card', 'personal_loan'], minBalance: 2000 } },
    });
    expect(say(reason({ rule: 'refinance', met: true, actual: 2, required: 'credit_card,personal_loan' }))).toBe(
      'You have 2 accounts this offer could refinance at a lower rate',
    );
    expect(
      say(reason({ rule: 'refinance', met: false, actual: 0, required: 'credit_card,personal_loan' }), 'en', consolidation),
    ).toBe(
      'Needs an open credit card or personal loan with a balance of at least $2,000 that this offer could refinance at a ' +
        'lower rate; none is on your report',
    );
    expect(
      say(reason({ rule: 'refinance', met: false, actual: 0, required: 'credit_card,personal_loan' }), 'es', consolidation),
    ).toBe(
      'Se necesita una cuenta abierta (tarjeta de crédito o préstamo personal) con un saldo de al menos $2,000 que esta ' +
        'oferta pueda refinanciar a una tasa menor; no hay ninguna en su informe',
    );
    expect(say(reason({ rule: 'tier', met: true, actual: 712, required: '640-699,700-759,760-850' }))).toBe(
      'Your score is in the 700–759 band, which gets 6.99% APR',
    );
    expect(say(reason({ rule: 'tier', met: false, actual: 590, required: '640-699' }), 'es')).toBe(
      'Esta oferta no tiene tasa para un puntaje de 590',
    );
  });

  it("falls back to the API's message for a rule or figures it does not know", () => {
    const unknown = {
      rule: 'income',
      met: false,
      actual: 1,
      required: 2,
      message: 'Your income is too low.',
    } as unknown as Reason;
    expect(say(unknown, 'es')).toBe('Your income is too low.');
    expect(say(reason({ rule: 'score', met: true, actual: 'n/a', required: 680, message: 'Score ok.' }))).toBe('Score ok.');
  });
});

describe('an offer card', () => {
  const show = async (offers: TOffer[], locale: 'en' | 'es' = 'en') => {
    const { api } = fakeApi({ 'GET /v1/users/usr_1/offers?limit=50': () => ({ data: offers }) });
    page = await renderPanel(createElement(OffersPanel, { userId: 'usr_1' }), { api, locale });
    const host = page.host;
    await settle(() => host.querySelectorAll('li.cw-offer').length === offers.length);
    return host;
  };

  /** Each row of the card's terms, as "term: value". */
  const terms = (card: Element) =>
    [...card.querySelectorAll('.cw-offer__term')].map(
      (row) => `${textOf(row.querySelector('dt'))}: ${textOf(row.querySelector('dd'))}`,
    );

  it("shows the customer's own APR and amount, the intro rate and the fees", async () => {
    const card = offer({
      type: 'credit_card',
      name: 'Maple Bank Balance Transfer Card',
      termMonths: null,
      apr: { min: 18.99, max: 22.99, type: 'variable' },
      qualification: { qualifies: true, apr: 22.99, creditLimit: { min: 2000, max: 10_000 }, reasons: [] },
      costs: { annualFee: 0, originationFeePercent: null, balanceTransferFeePercent: 3, introApr: { apr: 0, months: 15 } },
    });
    const host = await show([card]);
    const item = host.querySelector('li.cw-offer') as Element;
    expect(terms(item)).toEqual([
      'Your APR: 22.99% variable',
      'Your credit limit: $2,000–$10,000',
      'Intro APR: 0% intro APR for 15 months',
      'Annual fee: None',
      'Balance transfer fee: 3% of each transfer',
    ]);
    expect(textOf(item.querySelector('.cw-badge'))).toBe('✓ Pre-qualified');
    expect(textOf(item.querySelector('.cw-offer__provider'))).toBe('Maple Bank · Credit cards');
  });

  it('shows the whole range, and each requirement marked met or not in words, to a customer who does not qualify', async () => {
    const card = offer({
      preQualified: false,
      costs: { annualFee: 0, originationFeePercent: 1, balanceTransferFeePercent: null, introApr: null },
      qualification: {
        qualifies: false,
        apr: 6.99,
        creditLimit: { min: 5000, max: 75_000 },
        reasons: [
          reason({ rule: 'score', met: true, actual: 712, required: 640 }),
          reason({ rule: 'refinance', met: false, actual: 0, required: 'auto_loan' }),
          reason({ rule: 'tier', met: true, actual: 712, required: '640-699,700-759,760-850' }),
        ],
      },
    });
    const host = await show([card], 'es');
    const item = host.querySelector('li.cw-offer') as Element;
    expect(terms(item)).toEqual([
      'Tasa anual (APR): 5.49%–9.49% fija',
      'Monto del préstamo: $5,000–$75,000',
      'Plazo: 5 años',
      'Cuota anual: Ninguna',
      'Comisión de apertura: 1% del monto',
    ]);
    expect(textOf(item.querySelector('.cw-badge'))).toBe('No precalificado');
    const list = item.querySelector('ul.cw-offer__reasons');
    const label = host.ownerDocument.getElementById(list?.getAttribute('aria-labelledby') ?? '');
    expect(textOf(label)).toBe('Lo que pide esta oferta');
    const items = [...(list?.querySelectorAll('li') ?? [])];
    expect(items.map((li) => li.className.includes('--met'))).toEqual([true, false, true]);
    // The mark is hidden from screen readers; the word before the sentence says it.
    expect(items.map((li) => textOf(li.querySelector('[aria-hidden="true"]')))).toEqual(['✓', '✕', '✓']);
    expect(textOf(items[1]?.lastElementChild)).toBe(
      'No cumplido: Se necesita una cuenta abierta (préstamo de auto) con un saldo de al menos $5,000 que esta oferta ' +
        'pueda refinanciar a una tasa menor; no hay ninguna en su informe',
    );
    expect(textOf(items[0]?.lastElementChild)).toBe('Cumplido: Su puntaje es 712; se pide al menos 640');
    expect(textOf(item.querySelector('.cw-offer__description'))).toBe(
      'Traiga su préstamo de auto con nosotros a una tasa menor; sin pagos durante los primeros 60 días.',
    );
  });
});
