import { CreditApiError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRefinance } from '../../../apps/bff/src/modules/offers/savings.ts';
import { startTestApp, type TestApp } from '../../../apps/bff/test/helpers/harness.ts';
import { createCreditClient } from '../src/credit-client.ts';
import { type Customer, enrolCustomer } from '../src/enrol-customer.ts';
import { apply, audienceOf, offerFor, publishConsolidationLoan, reportOutcome, resultsOf } from '../src/offer-program.ts';
import { verifyInSandbox } from '../src/verify-in-sandbox.ts';

/** docs/partner/offers.md's sample, run as a bank would run it, against a real instance of the API. */
let app: TestApp;
let credit: ReturnType<typeof createCreditClient>;

const ADDRESS = { street: '12 Lake Shore Dr', city: 'Springfield', state: 'IL' as const, zipCode: '62701' };
/** Sandbox ssn 1004: a good score and card balances at costly rates, the customer this loan is for. */
const carded: Customer = {
  id: 'cust-offers-1',
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Garcia',
  ssnLast4: '1004',
  dateOfBirth: '1979-09-30',
  address: ADDRESS,
};
/** The same kind of file, enrolled at an address in a state the offer is not made in. */
const elsewhere: Customer = {
  ...carded,
  id: 'cust-offers-2',
  email: 'sam@example.com',
  firstName: 'Sam',
  lastName: 'Lee',
  dateOfBirth: '1990-02-14',
  address: { street: '4 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701' },
};

beforeAll(async () => {
  app = await startTestApp();
  const client = await app.createClient({ name: 'Maple Bank (sandbox)' });
  credit = createCreditClient({ CREDIT_API_URL: app.url, CREDIT_CLIENT_ID: client.id, CREDIT_CLIENT_SECRET: client.secret });
});
afterAll(() => app.close());

describe('docs/partner/offers.md, step by step', () => {
  it('publishes an offer, finds who qualifies, shows it, follows a click to a funded loan, and counts it', async () => {
    const today = app.clock.now().toISOString().slice(0, 10);
    const userId = await enrolCustomer(credit, carded);
    const otherId = await enrolCustomer(credit, elsewhere);
    for (const id of [userId, otherId]) expect(await verifyInSandbox(credit, id)).toBe(true);

    // 1. The offer: version 1, live, under the bank's own name; its creation is on the audit trail.
    const offer = await publishConsolidationLoan(credit);
    expect(offer).toMatchObject({ status: 'active', version: 1, provider: 'Maple Bank (sandbox)', preQualified: false });
    expect(offer.applicationUrl).toBe(
      'https://apply.yourbank.test/loans/consolidation?click=%7BclickId%7D&customer=%7BexternalUserId%7D',
    );
    const audit = await credit.call('listAuditEvents', { query: { type: 'offer.changed' } });
    expect(audit.data.map((e) => e.subject)).toContainEqual({ offerId: offer.offerId, change: 'created', version: '1' });

    // Beside the sandbox's sample catalogue, which carries the client's name without its "(…)".
    const catalogue = await credit.call('listOffers', { query: { status: 'all', limit: 100 } });
    expect(catalogue.pagination.total).toBe(9);
    const samples = catalogue.data.filter((o) => o.offerId !== offer.offerId);
    expect(samples.map((o) => o.provider)).toEqual(Array(8).fill('Maple Bank'));

    // 2. Its audience today: the Illinois customer, not the Texan one.
    expect(await audienceOf(credit, offer.offerId)).toEqual({ total: 1, customers: [carded.id] });

    // 3. What each customer sees.
    const seen = await offerFor(credit, userId, offer.offerId);
    expect(seen).toMatchObject({ preQualified: true, notMet: [] });
    expect([15.99, 11.99]).toContain(seen?.apr);
    expect(seen?.savings).toMatch(/^-\$\d+\.\d\d a month, -\$\d+\.\d\d in all \(lower_payment_and_cost\)$/);
    expect(await offerFor(credit, otherId, offer.offerId)).toMatchObject({
      preQualified: false,
      notMet: ['This offer is available in IL, WI only.'],
      savings: null,
    });

    // 4. The click's URL carries its id and the bank's own customer id.
    const { clickId, openUrl } = await apply(credit, userId, offer.offerId);
    expect(openUrl).toBe(`https://apply.yourbank.test/loans/consolidation?click=${clickId}&customer=${carded.id}`);

    // 5. Applied, then funded; a stage already recorded changes nothing, a stage behind the furthest is refused.
    expect(await reportOutcome(credit, clickId, { stage: 'applied' })).toEqual({ stage: 'applied', offerVersion: 1 });
    expect(await reportOutcome(credit, clickId, { stage: 'funded', amount: 6000 })).toEqual({ stage: 'funded', offerVersion: 1 });
    expect(await reportOutcome(credit, clickId, { stage: 'funded', amount: 6000 })).toEqual({ stage: 'funded', offerVersion: 1 });
    expect(await reportOutcome(credit, clickId, { stage: 'applied' })).toEqual({ stage: 'funded', offerVersion: 1 });
    const back = await reportOutcome(credit, clickId, { stage: 'declined' }).catch((error: unknown) => error);
    expect(back).toBeInstanceOf(CreditApiError);
    expect((back as CreditApiError).status).toBe(409);
    expect((back as CreditApiError).code).toBe('OFFER_STATE_CONFLICT');
    const converted = await credit.call('listEvents', { query: { type: 'offer.converted', userId } });
    expect(converted.data.map((e) => e.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ clickId, offerVersion: 1, stage: 'applied', amount: null }),
        expect.objectContaining({ clickId, offerVersion: 1, stage: 'funded', amount: 6000 }),
      ]),
    );
    expect(converted.data).toHaveLength(2);

    // 6. The results: one click, one application, approved by being funded, $6,000.
    const { offer: counts, scoreBands } = await resultsOf(credit, offer.offerId, today, today);
    expect(counts).toEqual({
      offerId: offer.offerId,
      name: 'Card Consolidation Loan',
      impressions: 0,
      clicks: 1,
      applications: 1,
      approvals: 1,
      declines: 0,
      funded: 1,
      fundedAmount: 6000,
    });
    expect(Object.values(scoreBands).reduce((sum, n) => sum + n, 0)).toBe(2);
  });
});

describe('the worked example of docs/partner/offers.md', () => {
  const mortgage = {
    accountId: 'acc_3f9a1c07d2b84e6a5c1d',
    kind: 'mortgage' as const,
    balance: 436_246,
    apr: 7,
    remainingMonths: 300,
  };
  const noFees = { originationFeePercent: 0, balanceTransferFeePercent: 0, introApr: null, annualFee: 0 };

  it('answers the figures the page gives, for each offer', () => {
    const now = { currentMonthlyPayment: 3083.3, currentRemainingMonths: 300, currentTotalCost: 924_988.79 };
    expect(compareRefinance(mortgage, { ...noFees, apr: 6.5, termMonths: 180 })).toEqual({
      ...now,
      offerMonthlyPayment: 3800.17,
      offerTermMonths: 180,
      offerTotalCost: 684_030.79,
      fees: 0,
      monthlyChange: 716.87,
      totalCostChange: -240_958,
      verdict: 'lower_cost_higher_payment',
    });
    expect(compareRefinance(mortgage, { ...noFees, apr: 6.53, termMonths: 360 })).toEqual({
      ...now,
      offerMonthlyPayment: 2765.98,
      offerTermMonths: 360,
      offerTotalCost: 995_754.25,
      fees: 0,
      monthlyChange: -317.32,
      totalCostChange: 70_765.46,
      verdict: 'lower_payment_higher_cost',
    });
    expect(compareRefinance(mortgage, { ...noFees, apr: 6.5, termMonths: 180, originationFeePercent: 1 })).toMatchObject({
      offerMonthlyPayment: 3838.56,
      fees: 4406.53,
      monthlyChange: 755.26,
      totalCostChange: -234_048.6,
    });
  });
});
