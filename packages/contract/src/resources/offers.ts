import { dateInput, instantInput, ZClickId, ZDate, ZOfferId, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { freeText } from '../strings.ts';
import { z } from '../zod.ts';
import { SCORE_MAX, SCORE_MIN } from './credit.ts';
import { US_STATE_CODES } from './users.ts';

export const OFFER_TYPES = ['credit_card', 'loan', 'mortgage'] as const;
export type TOfferType = (typeof OFFER_TYPES)[number];
export const ZOfferType = z
  .enum(OFFER_TYPES, `must be one of ${OFFER_TYPES.join(', ')}`)
  .meta({ id: 'OfferType', example: 'credit_card' });

/** An offer's life: `expired` is an active or paused offer whose `expiresAt` has passed; `archived` is final. */
export const OFFER_STATUSES = ['draft', 'active', 'paused', 'expired', 'archived'] as const;
export type TOfferStatus = (typeof OFFER_STATUSES)[number];
export const ZOfferStatus = z.enum(OFFER_STATUSES).meta({
  id: 'OfferStatus',
  description:
    '`draft`: not shown to customers yet; `active`: shown from `startsAt` until `expiresAt`; `paused`: hidden until ' +
    'resumed; `expired`: `expiresAt` has passed; `archived`: withdrawn for good (its clicks and outcomes are kept).',
});

/** Values of the `status` filter on the user's offer list. */
export const OFFER_STATUS_FILTERS = ['active', 'expired', 'all'] as const;
export const ZOfferStatusFilter = z
  .enum(OFFER_STATUS_FILTERS, `must be one of ${OFFER_STATUS_FILTERS.join(', ')}`)
  .default('active')
  .meta({ description: '`active` (default): shown now; `expired`: past `expiresAt`; `all`: both.' });

/** Values of the `status` filter on the catalogue: one status, or `all`. */
export const CATALOGUE_STATUS_FILTERS = [...OFFER_STATUSES, 'all'] as const;
export const ZCatalogueStatusFilter = z
  .enum(CATALOGUE_STATUS_FILTERS, `must be one of ${CATALOGUE_STATUS_FILTERS.join(', ')}`)
  .default('active')
  .meta({ description: 'One offer status (`active` by default), or `all`.' });

export const APR_TYPES = ['variable', 'fixed'] as const;

/** The kinds of account on a credit file that an offer can refinance. */
export const REFINANCE_ACCOUNT_KINDS = ['credit_card', 'auto_loan', 'student_loan', 'mortgage', 'personal_loan'] as const;
export type TRefinanceAccountKind = (typeof REFINANCE_ACCOUNT_KINDS)[number];

const ZScoreBound = z
  .number()
  .int('must be a whole number')
  .min(SCORE_MIN, `must be between ${SCORE_MIN} and ${SCORE_MAX}`)
  .max(SCORE_MAX, `must be between ${SCORE_MIN} and ${SCORE_MAX}`);
const ZPercent = (max: number) => z.number().min(0, `must be between 0 and ${max}`).max(max, `must be between 0 and ${max}`);
const ZMoney = z.number().min(0, 'must be 0 or more').max(100_000_000, 'must be at most 100000000');

const ZAmountRange = z
  .strictObject({ min: ZMoney, max: ZMoney })
  .refine((range) => range.min <= range.max, { message: 'min must not be above max' })
  .meta({ id: 'OfferAmountRange', description: 'USD: a card’s credit line, or the amount a loan lends.' });

export const ZOfferTier = z
  .strictObject({
    minScore: ZScoreBound.meta({ example: 720 }),
    maxScore: ZScoreBound.meta({ example: 850 }),
    apr: ZPercent(100).meta({ description: 'The APR for this band, in percent.', example: 6.49 }),
    creditLimit: ZAmountRange.nullable()
      .optional()
      .meta({ description: 'Credit line (cards) or amount (loans) for this band; null or absent when none is stated.' }),
  })
  .refine((tier) => tier.minScore <= tier.maxScore, { message: 'minScore must not be above maxScore' })
  .meta({ id: 'OfferTier', description: 'The terms a score band gets: scores from `minScore` to `maxScore` included.' });
export type TOfferTier = z.infer<typeof ZOfferTier>;

export const ZRefinanceRule = z
  .strictObject({
    accountKinds: z
      .array(z.enum(REFINANCE_ACCOUNT_KINDS, `must be one of ${REFINANCE_ACCOUNT_KINDS.join(', ')}`))
      .min(1, 'must name at least one account kind')
      .max(REFINANCE_ACCOUNT_KINDS.length)
      .meta({ description: 'Open accounts of these kinds can be moved to this offer.', example: ['auto_loan'] }),
    minBalance: ZMoney.optional().meta({ description: 'The account’s balance is at least this, USD.', example: 5000 }),
    minAprAbove: ZPercent(100)
      .optional()
      .meta({ description: 'The account’s APR is at least this many points above the customer’s tier APR.', example: 1 }),
  })
  .meta({
    id: 'OfferRefinanceRule',
    description:
      'A refinance offer: the customer qualifies only with an open account it could pay off, and its savings are ' +
      'worked out against that account.',
  });

export const ZOfferRules = z
  .strictObject({
    minScore: ZScoreBound.optional().meta({ example: 680 }),
    maxScore: ZScoreBound.optional(),
    maxUtilization: ZPercent(100)
      .optional()
      .meta({ description: 'Card balances over card limits, in percent, at most this.', example: 50 }),
    minFileAgeMonths: z
      .number()
      .int('must be a whole number')
      .min(0)
      .max(1200)
      .optional()
      .meta({ description: 'The oldest account on the file was opened at least this many months ago.', example: 24 }),
    noDelinquencyMonths: z
      .number()
      .int('must be a whole number')
      .min(1)
      .max(120)
      .optional()
      .meta({ description: 'No payment 30 days late or worse in this many months.', example: 12 }),
    states: z
      .array(z.enum(US_STATE_CODES, 'must be a two-letter US state code'))
      .min(1)
      .max(US_STATE_CODES.length)
      .optional()
      .meta({ description: 'The customer’s enrolled address is in one of these states.', example: ['IL', 'WI'] }),
    refinance: ZRefinanceRule.optional(),
  })
  .refine((rules) => rules.minScore === undefined || rules.maxScore === undefined || rules.minScore <= rules.maxScore, {
    message: 'minScore must not be above maxScore',
  })
  .meta({ id: 'OfferRules', description: 'Who qualifies. Every rule given must hold; an empty object lets everyone in.' });
export type TOfferRules = z.infer<typeof ZOfferRules>;

export const ZOfferCosts = z
  .strictObject({
    annualFee: ZMoney.default(0).meta({ description: 'USD a year; 0 when there is none.', example: 0 }),
    originationFeePercent: ZPercent(10)
      .optional()
      .meta({ description: 'Loans: deducted from what is lent, in percent of the amount.', example: 1 }),
    balanceTransferFeePercent: ZPercent(10)
      .optional()
      .meta({ description: 'Cards: added to a balance moved to the card, in percent.', example: 3 }),
    introApr: z
      .strictObject({
        apr: ZPercent(100).meta({ example: 0 }),
        months: z.number().int('must be a whole number').min(1).max(60).meta({ example: 15 }),
      })
      .nullable()
      .optional()
      .meta({ id: 'OfferIntroApr', description: 'An introductory APR for the first `months` months.' }),
  })
  .meta({ id: 'OfferCosts' });
export type TOfferCosts = z.infer<typeof ZOfferCosts>;

const ZSignupBonus = z
  .strictObject({
    amount: ZMoney.meta({ example: 200 }),
    requirement: z.string().min(1).max(200).meta({ example: 'Spend $500 in the first 3 months' }),
  })
  .meta({ id: 'OfferSignupBonus' });

export const ZQualificationReason = z
  .object({
    rule: z.enum(['score', 'utilization', 'file_age', 'delinquency', 'state', 'refinance', 'tier']).meta({
      description:
        'Which rule: the score range, card utilization, file age, recent late payments, state, an account to refinance, a rate band.',
    }),
    met: z.boolean(),
    actual: z
      .union([z.number(), z.string()])
      .nullable()
      .meta({ description: 'The customer’s figure (score, percent, months, state); null when the file has none.' }),
    required: z
      .union([z.number(), z.string()])
      .meta({ description: 'What the rule asks: the bound, the months, or the states joined by commas.' }),
    message: z.string().meta({ example: 'Your score is 712; this offer asks for at least 680.' }),
  })
  .meta({ id: 'OfferQualificationReason' });

export const ZOfferQualification = z
  .object({
    qualifies: z.boolean(),
    apr: z.number().nullable().meta({ description: 'The APR of the customer’s band; null when no band takes their score.' }),
    creditLimit: z
      .object({ min: z.number(), max: z.number() })
      .nullable()
      .meta({ description: 'The credit line or amount of the customer’s band, when it states one.' }),
    reasons: z.array(ZQualificationReason).meta({ description: 'One per rule of the offer, in the order of the rules.' }),
  })
  .meta({
    id: 'OfferQualification',
    description: 'Pre-qualification from the file on record (never a new pull). Null in the catalogue.',
  });
export type TOfferQualification = z.infer<typeof ZOfferQualification>;

export const SAVINGS_VERDICTS = ['lower_payment_and_cost', 'lower_cost_higher_payment', 'lower_payment_higher_cost'] as const;

export const ZOfferSavings = z
  .object({
    comparedToAccountId: z.string().meta({
      description: 'The account on the user’s credit report this offer would refinance (`GET …/credit-report`).',
      example: 'acc_3f9a1c07d2b84e6a5c1d',
    }),
    offeredApr: z.number().min(0).meta({ description: 'The customer’s tier APR, in percent.', example: 6.49 }),
    currentMonthlyPayment: z
      .number()
      .meta({ description: 'USD a month to repay the balance over its remaining term at its APR.', example: 612.4 }),
    currentRemainingMonths: z.number().int().meta({ example: 48 }),
    currentTotalCost: z.number().meta({ description: 'USD still to pay on the account as it is.', example: 29395.2 }),
    offerMonthlyPayment: z.number().meta({ description: 'USD a month on this offer, fees and intro months included.' }),
    offerTermMonths: z.number().int(),
    offerTotalCost: z.number().meta({ description: 'USD paid over the offer’s term, fees included.' }),
    fees: z.number().meta({ description: 'USD of fees inside the offer’s total (origination, transfer, annual).' }),
    monthlyChange: z
      .number()
      .meta({ description: 'Offer minus current monthly payment, USD: negative means a lower payment.', example: -84.12 }),
    totalCostChange: z
      .number()
      .meta({ description: 'Offer minus current total cost, USD: negative means paying less overall.', example: -2210.5 }),
    verdict: z.enum(SAVINGS_VERDICTS).meta({
      description:
        '`lower_payment_and_cost`: both go down; `lower_cost_higher_payment`: less overall but a higher payment (a ' +
        'shorter term); `lower_payment_higher_cost`: a lower payment but more overall (a longer term).',
    }),
  })
  .nullable()
  .meta({
    id: 'OfferSavings',
    description:
      'On a user’s offers: what moving an account on the file on record to this offer changes, each figure signed. ' +
      'Null when neither the payment nor the total cost goes down, when the customer does not qualify, and in the catalogue.',
  });
export type TOfferSavings = z.infer<typeof ZOfferSavings>;

export const ZOffer = z
  .object({
    offerId: ZOfferId,
    type: ZOfferType,
    provider: z.string().meta({ example: 'Maple Bank' }),
    name: z.string().meta({ example: 'Maple Cash Back Card' }),
    description: z.string(),
    apr: z
      .object({
        min: z.number().min(0).meta({ description: 'Lowest APR of the tiers, in percent.', example: 19.24 }),
        max: z.number().min(0).meta({ description: 'Highest APR of the tiers, in percent.', example: 29.99 }),
        type: z.enum(APR_TYPES).meta({ example: 'variable' }),
      })
      .meta({ id: 'OfferApr' }),
    creditLimit: z
      .object({ min: z.number().min(0), max: z.number().min(0) })
      .nullable()
      .meta({
        description: 'The tiers’ credit lines (cards) or amounts (loans), lowest to highest; null when none states one.',
        example: { min: 1000, max: 15000 },
      }),
    annualFee: z.number().min(0).meta({ description: 'Yearly fee in USD; 0 when there is none.', example: 0 }),
    signupBonus: z
      .object({ amount: z.number().min(0).meta({ example: 200 }), requirement: z.string() })
      .nullable()
      .meta({ description: 'Null when the offer has no bonus.' }),
    preQualified: z.boolean().meta({
      description: 'True when the user meets every rule of the offer (`qualification`). Always false in the catalogue.',
    }),
    applicationUrl: z.url().meta({
      description:
        'Where "Apply" leads. A `{clickId}` or `{externalUserId}` in it is filled per click in the click’s answer ' +
        '(here shown percent-encoded).',
      example: 'https://apply.maplebank.example/cards/cash-back?ref=%7BclickId%7D',
    }),
    status: ZOfferStatus,
    startsAt: ZTimestamp.nullable().meta({ description: 'Shown from this instant; null: as soon as it is active.' }),
    expiresAt: ZTimestamp.nullable().meta({ description: 'Shown until this instant; null: no end date.' }),
    version: z.number().int().min(1).meta({ description: 'Goes up by one on every change; clicks keep the one seen.' }),
    termMonths: z.number().int().nullable().meta({ description: 'Loans and mortgages: the term in months.' }),
    rules: ZOfferRules,
    tiers: z.array(ZOfferTier),
    costs: z
      .object({
        annualFee: z.number(),
        originationFeePercent: z.number().nullable(),
        balanceTransferFeePercent: z.number().nullable(),
        introApr: z.object({ apr: z.number(), months: z.number().int() }).nullable(),
      })
      .meta({ id: 'OfferCostsView' }),
    createdAt: ZTimestamp,
    updatedAt: ZTimestamp,
    qualification: ZOfferQualification.nullable(),
    estimatedSavings: ZOfferSavings,
  })
  .meta({ id: 'Offer' });
export type TOffer = z.infer<typeof ZOffer>;

/** `{clickId}` and `{externalUserId}` are the placeholders an application URL may carry. */
export const APPLICATION_URL_PLACEHOLDERS = ['{clickId}', '{externalUserId}'] as const;
const ZApplicationUrl = z
  .string()
  .max(2000, 'must be at most 2000 characters')
  .refine(
    (value) => {
      const filled = APPLICATION_URL_PLACEHOLDERS.reduce((url, p) => url.replaceAll(p, 'x'), value);
      if (/[{}\s]/.test(filled)) return false;
      try {
        return new URL(filled).protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: 'must be an https:// URL; the only placeholders allowed are {clickId} and {externalUserId}' },
  )
  .meta({ example: 'https://apply.maplebank.example/cards/cash-back?ref={clickId}' });

const offerFields = {
  type: ZOfferType,
  name: z.string().min(1).max(120),
  description: freeText(1000),
  provider: z.string().min(1).max(120).meta({ description: 'Defaults to your client’s name.' }),
  aprType: z.enum(APR_TYPES, 'must be variable or fixed'),
  tiers: z.array(ZOfferTier).min(1, 'must have at least one tier').max(10, 'must have at most 10 tiers'),
  rules: ZOfferRules,
  costs: ZOfferCosts,
  termMonths: z
    .number()
    .int('must be a whole number')
    .min(3, 'must be between 3 and 480')
    .max(480, 'must be between 3 and 480')
    .nullable(),
  signupBonus: ZSignupBonus.nullable(),
  applicationUrl: ZApplicationUrl,
  startsAt: instantInput().nullable(),
  expiresAt: instantInput().nullable(),
};

/** Rules a whole offer must keep, checked on creation and on the offer an update leaves. */
export const offerShapeProblems = (offer: {
  type: TOfferType;
  tiers: readonly TOfferTier[];
  termMonths: number | null | undefined;
  startsAt?: string | null;
  expiresAt?: string | null;
}): { field: string; message: string }[] => {
  const problems: { field: string; message: string }[] = [];
  const sorted = [...offer.tiers].sort((a, b) => a.minScore - b.minScore);
  for (let i = 1; i < sorted.length; i++) {
    if ((sorted[i]?.minScore ?? 0) <= (sorted[i - 1]?.maxScore ?? 0)) {
      problems.push({ field: 'tiers', message: 'score bands must not overlap' });
      break;
    }
  }
  if (offer.type !== 'credit_card' && (offer.termMonths === null || offer.termMonths === undefined)) {
    problems.push({ field: 'termMonths', message: 'is required for loans and mortgages' });
  }
  if (offer.startsAt && offer.expiresAt && new Date(offer.startsAt) >= new Date(offer.expiresAt)) {
    problems.push({ field: 'expiresAt', message: 'must be after startsAt' });
  }
  return problems;
};

export const ZCreateOfferInput = z
  .strictObject({
    ...offerFields,
    provider: offerFields.provider.optional(),
    rules: offerFields.rules.optional(),
    costs: offerFields.costs.optional(),
    termMonths: offerFields.termMonths.optional(),
    signupBonus: offerFields.signupBonus.optional(),
    startsAt: offerFields.startsAt.optional(),
    expiresAt: offerFields.expiresAt.optional(),
    status: z
      .enum(['draft', 'active'], 'must be draft or active')
      .default('active')
      .meta({ description: '`active` (default) shows it from `startsAt`; `draft` keeps it back until resumed.' }),
  })
  .meta({ id: 'CreateOfferInput' });
export type TCreateOfferInput = z.infer<typeof ZCreateOfferInput>;

export const ZUpdateOfferInput = z
  .strictObject({
    name: offerFields.name.optional(),
    description: offerFields.description.optional(),
    provider: offerFields.provider.optional(),
    aprType: offerFields.aprType.optional(),
    tiers: offerFields.tiers.optional(),
    rules: offerFields.rules.optional(),
    costs: offerFields.costs.optional(),
    termMonths: offerFields.termMonths.optional(),
    signupBonus: offerFields.signupBonus.optional(),
    applicationUrl: offerFields.applicationUrl.optional(),
    startsAt: offerFields.startsAt.optional(),
    expiresAt: offerFields.expiresAt.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: 'must change at least one field',
  })
  .meta({ id: 'UpdateOfferInput', description: 'The fields to change; `rules`, `tiers` and `costs` are replaced whole.' });
export type TUpdateOfferInput = z.infer<typeof ZUpdateOfferInput>;

export const ZOfferClickInput = z
  .strictObject({
    source: z.string().max(100).optional().meta({ description: 'Where the click came from.', example: 'dashboard' }),
    timestamp: instantInput()
      .optional()
      .meta({ description: 'When the user clicked (ISO 8601); defaults to when the request arrives.' }),
    metadata: z
      .strictObject({
        page: z.string().max(200).optional().meta({ example: 'offers' }),
        position: z
          .number()
          .int('must be a whole number')
          .min(0, 'must be 0 or more')
          .optional()
          .meta({ description: 'Position of the offer in the list shown, from 0.', example: 1 }),
      })
      .optional(),
  })
  .meta({ id: 'OfferClickInput' });
export type TOfferClickInput = z.infer<typeof ZOfferClickInput>;

export const ZOfferClick = z
  .object({
    clickId: ZClickId,
    offerId: ZOfferId,
    userId: ZUserId,
    recordedAt: ZTimestamp,
    offerVersion: z.number().int().min(1).meta({ description: 'The version of the offer the customer saw.' }),
    applicationUrl: z.url().meta({
      description: 'The offer’s application URL with `{clickId}` and `{externalUserId}` filled: open this one.',
    }),
  })
  .meta({ id: 'OfferClick' });
export type TOfferClick = z.infer<typeof ZOfferClick>;

/** What a bank reports of an application that started from a click, in the order it happens. */
export const OUTCOME_STAGES = ['applied', 'approved', 'declined', 'funded'] as const;
export type TOutcomeStage = (typeof OUTCOME_STAGES)[number];
export const ZOutcomeStage = z.enum(OUTCOME_STAGES, `must be one of ${OUTCOME_STAGES.join(', ')}`).meta({
  id: 'OutcomeStage',
  description:
    'Forward only: `applied` → `approved` → `funded`, or `declined` instead of approved or funded. A later stage may ' +
    'be recorded without the earlier ones.',
});

export const ZRecordOutcomeInput = z
  .strictObject({
    stage: ZOutcomeStage,
    amount: ZMoney.optional().meta({
      description: 'USD: the amount funded (required with `funded`) or approved; not allowed with applied or declined.',
      example: 18500,
    }),
    occurredAt: instantInput().optional().meta({ description: 'When it happened at the bank; defaults to now.' }),
  })
  .meta({ id: 'RecordOutcomeInput' });
export type TRecordOutcomeInput = z.infer<typeof ZRecordOutcomeInput>;

export const ZOfferOutcome = z
  .object({
    stage: ZOutcomeStage,
    amount: z.number().nullable(),
    occurredAt: ZTimestamp,
    recordedAt: ZTimestamp,
  })
  .meta({ id: 'OfferOutcome' });

export const ZOfferClickRecord = z
  .object({
    clickId: ZClickId,
    offerId: ZOfferId,
    offerVersion: z.number().int().min(1).nullable().meta({ description: 'Null for clicks recorded before versions.' }),
    userId: ZUserId,
    externalUserId: z.string(),
    clickedAt: ZTimestamp,
    stage: z.enum(['clicked', ...OUTCOME_STAGES]).meta({ description: 'The furthest stage recorded.' }),
    outcomes: z.array(ZOfferOutcome).meta({ description: 'Every stage recorded, oldest first.' }),
  })
  .meta({ id: 'OfferClickRecord' });
export type TOfferClickRecord = z.infer<typeof ZOfferClickRecord>;

export const ZOfferImpressionsInput = z
  .strictObject({
    offerIds: z
      .array(ZOfferId)
      .min(1, 'must name at least one offer')
      .max(50, 'must name at most 50 offers')
      .meta({ description: 'Offers whose card was at least half visible for one second.' }),
  })
  .meta({ id: 'OfferImpressionsInput' });
export type TOfferImpressionsInput = z.infer<typeof ZOfferImpressionsInput>;

export const ZOfferImpressions = z
  .object({
    counted: z.number().int().min(0).meta({ description: 'Impressions new today (one per customer, offer and day).' }),
    alreadyCounted: z.number().int().min(0),
  })
  .meta({ id: 'OfferImpressions' });
export type TOfferImpressions = z.infer<typeof ZOfferImpressions>;

export const ZAudienceMember = z
  .object({
    userId: ZUserId,
    externalUserId: z.string(),
    apr: z.number().meta({ description: 'The APR of the customer’s band.' }),
    creditLimit: z.object({ min: z.number(), max: z.number() }).nullable(),
    fileAsOf: ZTimestamp.meta({ description: 'When the file the rules were checked against was pulled.' }),
  })
  .meta({ id: 'AudienceMember' });
export type TAudienceMember = z.infer<typeof ZAudienceMember>;

export const RESULT_INTERVALS = ['day', 'week', 'month'] as const;

export const ZProgramResultsQuery = z.strictObject({
  from: dateInput().meta({ description: 'First day (UTC), included.', example: '2026-11-01' }),
  to: dateInput().meta({
    description: 'Last day (UTC), included; at most 365 days after `from` (366 days in all).',
    example: '2026-11-30',
  }),
  interval: z
    .enum(RESULT_INTERVALS, `must be one of ${RESULT_INTERVALS.join(', ')}`)
    .default('day')
    .meta({ description: 'Periods of the series: `day` (default), `week` (from Monday) or `month`.' }),
  offerId: ZOfferId.optional().meta({ description: 'One offer only.' }),
});
export type TProgramResultsQuery = z.infer<typeof ZProgramResultsQuery>;

const counts = {
  enrolled: z.number().int().meta({ description: 'Customers enrolled.' }),
  verified: z.number().int().meta({ description: 'Customers who passed identity verification.' }),
  consented: z.number().int().meta({ description: 'Consents given (the widget step or your attestation).' }),
  looked: z.number().int().meta({ description: 'Customers who read their score; once a customer a day.' }),
  impressions: z.number().int().meta({ description: 'Offer cards seen; once a customer, offer and day.' }),
  clicks: z.number().int(),
  applications: z.number().int().meta({ description: 'Clicks that reached `applied` or a later stage.' }),
  approvals: z.number().int().meta({ description: 'Clicks that reached `approved` or `funded`.' }),
  declines: z.number().int(),
  funded: z.number().int(),
  fundedAmount: z.number().meta({ description: 'USD funded.' }),
};
const ZResultCounts = z.object(counts).meta({ id: 'ProgramCounts' });

export const ZProgramResults = z
  .object({
    from: ZDate,
    to: ZDate,
    interval: z.enum(RESULT_INTERVALS),
    totals: ZResultCounts,
    series: z.array(z.object({ start: ZDate, ...counts }).meta({ id: 'ProgramPeriod' })),
    offers: z.array(
      z
        .object({
          offerId: ZOfferId,
          name: z.string(),
          impressions: z.number().int(),
          clicks: z.number().int(),
          applications: z.number().int(),
          approvals: z.number().int(),
          declines: z.number().int(),
          funded: z.number().int(),
          fundedAmount: z.number(),
        })
        .meta({ id: 'OfferResults' }),
    ),
    scores: z
      .object({
        bands: z.object({
          very_poor: z.number().int(),
          poor: z.number().int(),
          fair: z.number().int(),
          good: z.number().int(),
          excellent: z.number().int(),
        }),
        customers: z.number().int().meta({ description: 'Customers with a file on record.' }),
        rose: z.number().int().meta({ description: 'Of them, those whose score is above their first score with us.' }),
      })
      .meta({ id: 'ProgramScores', description: 'Now, not over the range: the scores on record today.' }),
  })
  .meta({ id: 'ProgramResults' });
export type TProgramResults = z.infer<typeof ZProgramResults>;

export const ZListUserOffersQuery = z.strictObject({
  ...ZPageQuery.shape,
  type: ZOfferType.optional(),
  status: ZOfferStatusFilter,
});
export type TListUserOffersQuery = z.infer<typeof ZListUserOffersQuery>;

export const ZListOffersCatalogQuery = z.strictObject({
  ...ZPageQuery.shape,
  type: ZOfferType.optional(),
  status: ZCatalogueStatusFilter,
});
export type TListOffersCatalogQuery = z.infer<typeof ZListOffersCatalogQuery>;

export const ZOfferIdParams = z.strictObject({ offerId: ZOfferId });
export const ZOfferVersionParams = z.strictObject({
  offerId: ZOfferId,
  version: z.coerce
    .number({ error: 'must be a version number: 1, 2, 3 …' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(1_000_000, 'must be at most 1000000')
    .meta({ description: 'A version the offer had (a click’s `offerVersion`).', example: 2 }),
});
export const ZClickIdParams = z.strictObject({ clickId: ZClickId });
export const ZUserOfferParams = z.strictObject({ userId: ZUserId, offerId: ZOfferId });
export const ZAudienceQuery = z.strictObject({ ...ZPageQuery.shape });

export const ZAudiencePreviewInput = z
  .strictObject({
    type: offerFields.type,
    tiers: offerFields.tiers,
    rules: offerFields.rules.optional(),
    costs: offerFields.costs.optional().meta({ description: 'What a refinance rule compares against the account.' }),
    termMonths: offerFields.termMonths.optional(),
  })
  .meta({
    id: 'AudiencePreviewInput',
    description: 'The terms of an offer being written (not saved), as createOffer takes them: who would qualify for it today.',
  });
export type TAudiencePreviewInput = z.infer<typeof ZAudiencePreviewInput>;

export const ZAudiencePreview = z
  .object({
    qualifying: z.number().int().min(0).meta({
      description: 'Your customers who would qualify today: the count `listOfferAudience` would give once saved.',
      example: 412,
    }),
    countedAt: ZTimestamp,
  })
  .meta({ id: 'AudiencePreview' });
export type TAudiencePreview = z.infer<typeof ZAudiencePreview>;
