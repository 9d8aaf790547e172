import type { TOffer } from '@credit/contract';
import type { TradelineKind } from '../../bureau/provider.ts';
import type { Config } from '../../config.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';

/**
 * One offer as the catalogue holds it: the partner-facing fields, plus what the service needs to
 * personalise it (`minScore`) and to date it (`expiresInMonths`).
 */
export interface CatalogueEntry extends Omit<TOffer, 'preQualified' | 'expiresAt' | 'estimatedSavings'> {
  /** Lowest VantageScore 3.0 the provider pre-qualifies. */
  minScore: number;
  /** The kinds of account the offer can pay off and replace, for `estimatedSavings`; empty for new credit only. */
  refinances: readonly TradelineKind[];
  /**
   * When the offer ends, counted in calendar months from the current one: `2` → the end of the
   * month after next; `-1` → the end of last month (already expired). See `expiresAt`.
   */
  expiresInMonths: number;
}

/** A catalogue entry dated against a given instant. */
export interface DatedOffer extends CatalogueEntry {
  expiresAt: Date;
}

/**
 * The catalogue is a rolling one: expiry dates are computed from the clock, so the active offers are
 * always a few months from ending and the expired ones ended last month or the month before. The
 * `status` filter therefore gives the same sets on any date, in tests and in a long-running sandbox.
 * Each offer ends at the last second of a calendar month (UTC), like real promotional offers.
 */
export const expiresAt = (entry: CatalogueEntry, now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + entry.expiresInMonths + 1, 1) - 1000);

/** An offer is expired once its `expiresAt` has passed. */
export const isActive = (offer: DatedOffer, now: Date): boolean => offer.expiresAt.getTime() > now.getTime();

/**
 * Fictional providers, realistic terms: cards carry variable APRs of roughly 18–30 %, personal and auto
 * loans fixed APRs, mortgages 6–8 %. `creditLimit` is the credit line of a card, the amount that can
 * be borrowed for a loan or mortgage. Kept in display order: cards, loans, mortgages.
 */
export const CATALOGUE: readonly CatalogueEntry[] = [
  {
    offerId: 'off_nwbCashBack001',
    type: 'credit_card',
    provider: 'Northwind Bank',
    name: 'Northwind Cash Back Card',
    description: 'Unlimited 1.5% cash back on every purchase and 3% at grocery stores, with no annual fee.',
    apr: { min: 19.24, max: 28.24, type: 'variable' },
    creditLimit: { min: 1000, max: 15000 },
    annualFee: 0,
    signupBonus: { amount: 200, requirement: 'Spend $500 in the first 3 months' },
    applicationUrl: 'https://www.northwindbank.example/apply/cash-back',
    minScore: 670,
    refinances: [],
    expiresInMonths: 3,
  },
  {
    offerId: 'off_nwbTravelPlus01',
    type: 'credit_card',
    provider: 'Northwind Bank',
    name: 'Northwind Travel Plus Card',
    description: '3x points on travel and dining, airport lounge access and no foreign transaction fees.',
    apr: { min: 21.49, max: 28.49, type: 'variable' },
    creditLimit: { min: 5000, max: 30000 },
    annualFee: 95,
    signupBonus: { amount: 750, requirement: 'Spend $4,000 in the first 3 months' },
    applicationUrl: 'https://www.northwindbank.example/apply/travel-plus',
    minScore: 740,
    refinances: [],
    expiresInMonths: 4,
  },
  {
    offerId: 'off_ctsPlatinumBT01',
    type: 'credit_card',
    provider: 'Contoso',
    name: 'Contoso Platinum Balance Transfer Card',
    description: '0% intro APR on balance transfers for 18 months (3% transfer fee), then the standard variable APR.',
    apr: { min: 18.24, max: 29.24, type: 'variable' },
    creditLimit: { min: 2000, max: 20000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.contoso.example/cards/platinum-balance-transfer',
    minScore: 700,
    refinances: ['credit_card'],
    expiresInMonths: 2,
  },
  {
    offerId: 'off_ctsStudent0001',
    type: 'credit_card',
    provider: 'Contoso',
    name: 'Contoso Student Card',
    description:
      'Built for a first credit card: 1% cash back, free monthly score updates and a higher line after 6 on-time payments.',
    apr: { min: 20.24, max: 27.24, type: 'variable' },
    creditLimit: { min: 500, max: 3000 },
    annualFee: 0,
    signupBonus: { amount: 50, requirement: 'Make your first purchase within 3 months' },
    applicationUrl: 'https://www.contoso.example/cards/student',
    minScore: 600,
    refinances: [],
    expiresInMonths: 5,
  },
  {
    offerId: 'off_fcuSecured0001',
    type: 'credit_card',
    provider: 'Fabrikam Credit Union',
    name: 'Fabrikam Secured Builder Card',
    description: 'A secured card to build or rebuild credit: your deposit sets the line, and it reports to all three bureaus.',
    apr: { min: 18.49, max: 18.49, type: 'variable' },
    creditLimit: { min: 200, max: 2500 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.fabrikamcu.example/cards/secured-builder',
    minScore: 300,
    refinances: [],
    expiresInMonths: 6,
  },
  {
    offerId: 'off_wgbRewards0001',
    type: 'credit_card',
    provider: 'Woodgrove Bank',
    name: 'Woodgrove Everyday Rewards Card',
    description: '2x points at gas stations and restaurants, 1x everywhere else; points never expire.',
    apr: { min: 20.99, max: 29.99, type: 'variable' },
    creditLimit: { min: 1000, max: 10000 },
    annualFee: 0,
    signupBonus: { amount: 150, requirement: 'Spend $1,000 in the first 90 days' },
    applicationUrl: 'https://www.woodgrovebank.example/cards/everyday-rewards',
    minScore: 640,
    refinances: [],
    expiresInMonths: 3,
  },
  {
    offerId: 'off_wgbPremier0001',
    type: 'credit_card',
    provider: 'Woodgrove Bank',
    name: 'Woodgrove Premier Card',
    description: 'Premium travel card with a $300 annual travel credit and 5x points on flights booked through Woodgrove.',
    apr: { min: 22.99, max: 29.99, type: 'variable' },
    creditLimit: { min: 10000, max: 50000 },
    annualFee: 250,
    signupBonus: { amount: 1000, requirement: 'Spend $6,000 in the first 6 months' },
    applicationUrl: 'https://www.woodgrovebank.example/cards/premier',
    minScore: 760,
    refinances: [],
    expiresInMonths: -1,
  },
  {
    offerId: 'off_nwbPersonal001',
    type: 'loan',
    provider: 'Northwind Bank',
    name: 'Northwind Personal Loan',
    description: 'Fixed-rate personal loan from $2,000 to $50,000 over 2 to 7 years, with no origination fee.',
    apr: { min: 7.99, max: 24.99, type: 'fixed' },
    creditLimit: { min: 2000, max: 50000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.northwindbank.example/apply/personal-loan',
    minScore: 660,
    refinances: ['personal_loan'],
    expiresInMonths: 3,
  },
  {
    offerId: 'off_fcuDebtConsol1',
    type: 'loan',
    provider: 'Fabrikam Credit Union',
    name: 'Fabrikam Debt Consolidation Loan',
    description: 'Combine card balances into one fixed monthly payment; we can pay your other lenders directly.',
    apr: { min: 8.49, max: 17.99, type: 'fixed' },
    creditLimit: { min: 5000, max: 40000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.fabrikamcu.example/loans/debt-consolidation',
    minScore: 680,
    refinances: ['credit_card', 'personal_loan'],
    expiresInMonths: 4,
  },
  {
    offerId: 'off_ctsAutoLoan001',
    type: 'loan',
    provider: 'Contoso',
    name: 'Contoso New & Used Auto Loan',
    description: 'Finance a new or used car for up to 84 months; rate discount with automatic payments.',
    apr: { min: 5.49, max: 14.99, type: 'fixed' },
    creditLimit: { min: 5000, max: 75000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.contoso.example/loans/auto',
    minScore: 620,
    refinances: [],
    expiresInMonths: 2,
  },
  {
    offerId: 'off_fcuAutoRefi001',
    type: 'loan',
    provider: 'Fabrikam Credit Union',
    name: 'Fabrikam Auto Refinance',
    description: 'Refinance your current auto loan and lower your monthly payment; no payments for the first 60 days.',
    apr: { min: 4.99, max: 12.49, type: 'fixed' },
    creditLimit: { min: 5000, max: 60000 },
    annualFee: 0,
    signupBonus: { amount: 100, requirement: 'Refinance a balance of $10,000 or more' },
    applicationUrl: 'https://www.fabrikamcu.example/loans/auto-refinance',
    minScore: 640,
    refinances: ['auto_loan'],
    expiresInMonths: 5,
  },
  {
    offerId: 'off_wgbStudentRf01',
    type: 'loan',
    provider: 'Woodgrove Bank',
    name: 'Woodgrove Student Loan Refinance',
    description: 'Refinance federal and private student loans into one fixed-rate loan over 5 to 20 years.',
    apr: { min: 4.49, max: 9.99, type: 'fixed' },
    creditLimit: { min: 5000, max: 150000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.woodgrovebank.example/loans/student-refinance',
    minScore: 650,
    refinances: ['student_loan'],
    expiresInMonths: 4,
  },
  {
    offerId: 'off_wgbStarterLn01',
    type: 'loan',
    provider: 'Woodgrove Bank',
    name: 'Woodgrove Credit Starter Loan',
    description: 'A small fixed-rate loan for thin or rebuilding credit files; on-time payments are reported monthly.',
    apr: { min: 17.99, max: 35.99, type: 'fixed' },
    creditLimit: { min: 500, max: 5000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.woodgrovebank.example/loans/credit-starter',
    minScore: 560,
    refinances: [],
    expiresInMonths: 1,
  },
  {
    offerId: 'off_ctsHolidayLn01',
    type: 'loan',
    provider: 'Contoso',
    name: 'Contoso Seasonal Personal Loan',
    description: 'Limited-time fixed-rate loan for seasonal expenses, repaid over 12 to 36 months.',
    apr: { min: 9.99, max: 22.99, type: 'fixed' },
    creditLimit: { min: 1000, max: 15000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.contoso.example/loans/seasonal',
    minScore: 650,
    refinances: [],
    expiresInMonths: -2,
  },
  {
    offerId: 'off_tspFixed30yr01',
    type: 'mortgage',
    provider: 'Tailspin Mortgage',
    name: 'Tailspin 30-Year Fixed Mortgage',
    description: 'A conforming 30-year fixed-rate mortgage for purchase or refinance, from 5% down.',
    apr: { min: 6.25, max: 7.49, type: 'fixed' },
    creditLimit: { min: 100000, max: 806500 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.tailspinmortgage.example/apply/30-year-fixed',
    minScore: 680,
    refinances: ['mortgage'],
    expiresInMonths: 3,
  },
  {
    offerId: 'off_tspFixed15yr01',
    type: 'mortgage',
    provider: 'Tailspin Mortgage',
    name: 'Tailspin 15-Year Fixed Mortgage',
    description: 'Pay your home off sooner: a 15-year fixed rate with lower total interest than a 30-year loan.',
    apr: { min: 6.0, max: 6.875, type: 'fixed' },
    creditLimit: { min: 100000, max: 806500 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.tailspinmortgage.example/apply/15-year-fixed',
    minScore: 700,
    refinances: ['mortgage'],
    expiresInMonths: 4,
  },
  {
    offerId: 'off_tspFhaLoan0001',
    type: 'mortgage',
    provider: 'Tailspin Mortgage',
    name: 'Tailspin FHA 30-Year Mortgage',
    description: 'Government-insured FHA loan with 3.5% down, for first-time buyers and moderate credit.',
    apr: { min: 6.125, max: 7.25, type: 'fixed' },
    creditLimit: { min: 50000, max: 498257 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.tailspinmortgage.example/apply/fha-30-year',
    minScore: 580,
    refinances: ['mortgage'],
    expiresInMonths: 2,
  },
  {
    offerId: 'off_wgbArm71000001',
    type: 'mortgage',
    provider: 'Woodgrove Bank',
    name: 'Woodgrove 7/1 Adjustable-Rate Mortgage',
    description: 'A fixed rate for the first 7 years, then adjusting yearly; jumbo amounts available.',
    apr: { min: 6.375, max: 7.875, type: 'variable' },
    creditLimit: { min: 150000, max: 1500000 },
    annualFee: 0,
    signupBonus: null,
    applicationUrl: 'https://www.woodgrovebank.example/mortgages/7-1-arm',
    minScore: 720,
    refinances: ['mortgage'],
    expiresInMonths: -1,
  },
];

let datedForMonth: { month: number; offers: readonly DatedOffer[] } | undefined;

/** The catalogue as of `now`, in display order. Expiry depends on the calendar month only, so it is built once a month. */
export const datedCatalogue = (now: Date): readonly DatedOffer[] => {
  const month = now.getUTCFullYear() * 12 + now.getUTCMonth();
  if (datedForMonth?.month !== month) {
    datedForMonth = { month, offers: CATALOGUE.map((entry) => ({ ...entry, expiresAt: expiresAt(entry, now) })) };
  }
  return datedForMonth.offers;
};

/** One offer as of `now`, active or not; undefined when the id is not in the catalogue. */
export const findOffer = (offerId: string, now: Date): DatedOffer | undefined =>
  datedCatalogue(now).find((offer) => offer.offerId === offerId);

/** The sandbox's stand-in for a provider's application page (modules/sandbox-landing), on this API. */
export const SANDBOX_APPLY_PREFIX = '/sandbox/apply/';
const sandboxApplyPath = (offerId: string) => `${SANDBOX_APPLY_PREFIX}${encodeURIComponent(offerId)}`;

/**
 * Where "Apply" leads. In production, the provider's own application page. The sandbox's providers are
 * fictional (`.example` hosts, which never answer), so there it is the API's own landing page, which
 * says so and shows how to simulate the conversion: the customer's journey ends somewhere real.
 */
export const applicationUrlFor = (offer: CatalogueEntry, config: Config): string =>
  config.APP_ENV === 'sandbox' ? `${publicBaseUrl(config)}${sandboxApplyPath(offer.offerId)}` : offer.applicationUrl;

/** The partner-facing shape: internal fields dropped, `preQualified` and the user's savings decided by the caller. */
export const toOffer = (
  offer: DatedOffer,
  preQualified: boolean,
  config: Config,
  estimatedSavings: TOffer['estimatedSavings'] = null,
): TOffer => ({
  offerId: offer.offerId,
  type: offer.type,
  provider: offer.provider,
  name: offer.name,
  description: offer.description,
  apr: offer.apr,
  creditLimit: offer.creditLimit,
  annualFee: offer.annualFee,
  signupBonus: offer.signupBonus,
  preQualified,
  applicationUrl: applicationUrlFor(offer, config),
  expiresAt: offer.expiresAt.toISOString(),
  estimatedSavings,
});
