import type { TOffer } from '@credit/contract';
import { AUTO_LOAN_ID } from './credit-report-fixture.ts';

type Savings = NonNullable<TOffer['estimatedSavings']>;
type Reason = NonNullable<TOffer['qualification']>['reasons'][number];

/** A bank's auto refinance loan as `GET /v1/users/{userId}/offers` lists it for a customer who qualifies. */
export const offer = (overrides: Partial<TOffer> = {}): TOffer => ({
  offerId: 'off_refi000000001',
  type: 'loan',
  provider: 'Maple Bank',
  name: 'Maple Bank Auto Refinance',
  description: 'Move your car loan to us for a lower rate; no payments for the first 60 days.',
  apr: { min: 5.49, max: 9.49, type: 'fixed' },
  creditLimit: { min: 5000, max: 75_000 },
  annualFee: 0,
  signupBonus: null,
  preQualified: true,
  applicationUrl: 'https://apply.maple-bank.example/loans/auto-refinance?click=%7BclickId%7D',
  status: 'active',
  startsAt: null,
  expiresAt: null,
  version: 1,
  termMonths: 60,
  rules: { minScore: 640, refinance: { accountKinds: ['auto_loan'], minBalance: 5000, minAprAbove: 0.5 } },
  tiers: [
    { minScore: 640, maxScore: 699, apr: 9.49, creditLimit: { min: 5000, max: 50_000 } },
    { minScore: 700, maxScore: 759, apr: 6.99, creditLimit: { min: 5000, max: 75_000 } },
    { minScore: 760, maxScore: 850, apr: 5.49, creditLimit: { min: 5000, max: 75_000 } },
  ],
  costs: { annualFee: 0, originationFeePercent: null, balanceTransferFeePercent: null, introApr: null },
  createdAt: '2026-11-01T00:00:00Z',
  updatedAt: '2026-11-01T00:00:00Z',
  qualification: {
    qualifies: true,
    apr: 6.99,
    creditLimit: { min: 5000, max: 75_000 },
    reasons: [
      reason({ rule: 'score', met: true, actual: 712, required: 640 }),
      reason({ rule: 'refinance', met: true, actual: 1, required: 'auto_loan' }),
      reason({ rule: 'tier', met: true, actual: 712, required: '640-699,700-759,760-850' }),
    ],
  },
  estimatedSavings: null,
  ...overrides,
});

export const reason = (fields: Omit<Reason, 'message'> & { message?: string }): Reason => ({
  message: `The API's own words for ${fields.rule}.`,
  ...fields,
});

/** A saving against the fixture report's Contoso auto loan (11.4% APR, 48 months left). */
export const saving = (changes: Partial<Savings> = {}): Savings => ({
  comparedToAccountId: AUTO_LOAN_ID,
  offeredApr: 6.99,
  currentMonthlyPayment: 612.4,
  currentRemainingMonths: 48,
  currentTotalCost: 29_395.2,
  offerMonthlyPayment: 528.28,
  offerTermMonths: 48,
  offerTotalCost: 27_184.7,
  fees: 0,
  monthlyChange: -84.12,
  totalCostChange: -2210.5,
  verdict: 'lower_payment_and_cost',
  ...changes,
});
