import type { CallArgs, CreditClient } from '@credit/sdk';

/**
 * Your card consolidation loan, in your catalogue: who qualifies (rules read from each customer's file on record), the
 * APR and amount each score band gets, and its fee. Customers see it at once; `status: 'draft'` would hold it back.
 */
export async function publishConsolidationLoan(credit: CreditClient) {
  return credit.call('createOffer', {
    body: {
      type: 'loan',
      name: 'Card Consolidation Loan',
      description: 'Pay off your credit card balances with one fixed-rate loan over 36 months.',
      aprType: 'fixed',
      termMonths: 36,
      tiers: [
        { minScore: 640, maxScore: 719, apr: 15.99, creditLimit: { min: 2000, max: 25000 } },
        { minScore: 720, maxScore: 850, apr: 11.99, creditLimit: { min: 2000, max: 40000 } },
      ],
      rules: {
        minScore: 640,
        noDelinquencyMonths: 12,
        states: ['IL', 'WI'],
        refinance: { accountKinds: ['credit_card'], minBalance: 1000, minAprAbove: 3 },
      },
      costs: { annualFee: 0, originationFeePercent: 2 },
      applicationUrl: 'https://apply.yourbank.test/loans/consolidation?click={clickId}&customer={externalUserId}',
    },
  });
}

/** Your customers who qualify today, for your own campaign: how many, and the first 100 of them. */
export async function audienceOf(credit: CreditClient, offerId: string) {
  const page = await credit.call('listOfferAudience', { params: { offerId }, query: { limit: 100 } });
  return { total: page.pagination.total, customers: page.data.map((m) => m.externalUserId) };
}

/** The offer as one customer sees it: pre-qualified or not, why not, and what moving a card balance to it changes. */
export async function offerFor(credit: CreditClient, userId: string, offerId: string) {
  const offers = await credit.call('listUserOffers', { params: { userId }, query: { type: 'loan', limit: 100 } });
  const offer = offers.data.find((o) => o.offerId === offerId);
  if (!offer) return undefined;
  const savings = offer.estimatedSavings;
  const usd = (value: number) => `${value < 0 ? '-' : '+'}$${Math.abs(value).toFixed(2)}`;
  return {
    preQualified: offer.preQualified,
    apr: offer.qualification?.apr ?? null,
    notMet: offer.qualification?.reasons.filter((r) => !r.met).map((r) => r.message) ?? [],
    savings: savings && `${usd(savings.monthlyChange)} a month, ${usd(savings.totalCostChange)} in all (${savings.verdict})`,
  };
}

/** "Apply": record the click, then open the URL it answers, which carries the click id your application keeps. */
export async function apply(credit: CreditClient, userId: string, offerId: string) {
  const click = await credit.call('recordOfferClick', { params: { userId, offerId }, body: { source: 'dashboard' } });
  return { clickId: click.clickId, openUrl: click.applicationUrl };
}

/** Your application system, as the application moves on (forward only): each new stage emits `offer.converted`. */
export async function reportOutcome(credit: CreditClient, clickId: string, outcome: CallArgs<'recordOfferOutcome'>['body']) {
  const record = await credit.call('recordOfferOutcome', { params: { clickId }, body: outcome });
  return { stage: record.stage, offerVersion: record.offerVersion };
}

/** What the offer yielded from `from` to `to` (UTC days, YYYY-MM-DD), counted as each event happened. */
export async function resultsOf(credit: CreditClient, offerId: string, from: string, to: string) {
  const results = await credit.call('getProgramResults', { query: { from, to, interval: 'day', offerId } });
  const [offer] = results.offers;
  return { offer, scoreBands: results.scores.bands };
}
