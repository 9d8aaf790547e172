import { ZDate, ZPageQuery, ZTimestamp } from '../common.ts';
import { z } from '../zod.ts';

/** VantageScore 3.0 range. */
export const SCORE_MIN = 300;
export const SCORE_MAX = 850;

export const ZScoreValue = z
  .number()
  .int('must be a whole number')
  .min(SCORE_MIN, `must be between ${SCORE_MIN} and ${SCORE_MAX}`)
  .max(SCORE_MAX, `must be between ${SCORE_MIN} and ${SCORE_MAX}`)
  .meta({ description: 'VantageScore 3.0 score, 300–850.', example: 712 });

export const CREDIT_RATINGS = ['very_poor', 'poor', 'fair', 'good', 'excellent'] as const;
export type TCreditRating = (typeof CREDIT_RATINGS)[number];

/** VantageScore 3.0 bands, inclusive at both ends. */
export const RATING_BANDS = [
  { rating: 'very_poor', min: 300, max: 499 },
  { rating: 'poor', min: 500, max: 600 },
  { rating: 'fair', min: 601, max: 660 },
  { rating: 'good', min: 661, max: 780 },
  { rating: 'excellent', min: 781, max: 850 },
] as const satisfies readonly { rating: TCreditRating; min: number; max: number }[];

export const ZCreditRating = z.enum(CREDIT_RATINGS).meta({
  id: 'CreditRating',
  description: 'VantageScore 3.0 band: `very_poor` 300–499, `poor` 500–600, `fair` 601–660, `good` 661–780, `excellent` 781–850.',
});

/** The rating band of a score; throws a RangeError outside 300–850 or for a fractional score. */
export const ratingForScore = (score: number): TCreditRating => {
  const band = Number.isInteger(score) ? RATING_BANDS.find((b) => score >= b.min && score <= b.max) : undefined;
  if (!band) throw new RangeError(`score must be a whole number between ${SCORE_MIN} and ${SCORE_MAX}, got ${score}`);
  return band.rating;
};

export const CREDIT_BUREAUS = ['TransUnion', 'Equifax', 'Experian'] as const;
export type TCreditBureau = (typeof CREDIT_BUREAUS)[number];
export const ZCreditBureau = z
  .enum(CREDIT_BUREAUS)
  .meta({ id: 'CreditBureau', description: 'The credit bureau that supplied the score.' });

export const FACTOR_CODES = ['PAYMENT_HISTORY', 'CREDIT_UTILIZATION', 'CREDIT_AGE', 'CREDIT_MIX', 'NEW_CREDIT'] as const;
export const ZFactorCode = z.enum(FACTOR_CODES).meta({ id: 'CreditFactorCode' });
export const ZFactorImpact = z.enum(['high', 'medium', 'low']).meta({
  id: 'CreditFactorImpact',
  description:
    'How much this factor is holding the score back, judged from the user’s own figures (e.g. utilisation ≥ 50 % is high, under 30 % low).',
});

const amount = z.number().min(0);

export const ZCreditUtilizationDetails = z
  .object({
    utilizationPercent: z.number().min(0).meta({ description: 'Revolving balance ÷ limit, in percent.', example: 23.5 }),
    totalBalance: amount.meta({ example: 4700 }),
    totalLimit: amount.meta({ example: 20000 }),
  })
  .meta({ id: 'CreditUtilizationDetails' });

export const ZCreditAgeDetails = z
  .object({
    averageAgeYears: amount.meta({ example: 6.4 }),
    oldestAccountYears: amount.meta({ example: 14.2 }),
  })
  .meta({ id: 'CreditAgeDetails' });

export const ZNewCreditDetails = z
  .object({
    recentInquiries: z.number().int().min(0).meta({ description: 'Hard inquiries in the last 12 months.', example: 2 }),
  })
  .meta({ id: 'NewCreditDetails' });

const factorBase = {
  name: z.string().meta({ example: 'Credit utilization' }),
  impact: ZFactorImpact,
  description: z.string(),
  score: z.number().int().min(0).max(100).meta({ description: 'How well the user does on this factor, 0–100.', example: 78 }),
};

/** One factor; `details` depends on `code` (none for PAYMENT_HISTORY and CREDIT_MIX). */
export const ZCreditFactor = z
  .discriminatedUnion('code', [
    z.object({ code: z.literal('PAYMENT_HISTORY'), ...factorBase }).meta({ id: 'PaymentHistoryFactor' }),
    z
      .object({ code: z.literal('CREDIT_UTILIZATION'), ...factorBase, details: ZCreditUtilizationDetails.optional() })
      .meta({ id: 'CreditUtilizationFactor' }),
    z
      .object({ code: z.literal('CREDIT_AGE'), ...factorBase, details: ZCreditAgeDetails.optional() })
      .meta({ id: 'CreditAgeFactor' }),
    z.object({ code: z.literal('CREDIT_MIX'), ...factorBase }).meta({ id: 'CreditMixFactor' }),
    z
      .object({ code: z.literal('NEW_CREDIT'), ...factorBase, details: ZNewCreditDetails.optional() })
      .meta({ id: 'NewCreditFactor' }),
  ])
  .meta({
    id: 'CreditFactor',
    description:
      'A score factor. `details` by `code`: CREDIT_UTILIZATION {utilizationPercent, totalBalance, totalLimit}, ' +
      'CREDIT_AGE {averageAgeYears, oldestAccountYears}, NEW_CREDIT {recentInquiries}; ' +
      'none for PAYMENT_HISTORY and CREDIT_MIX.',
  });
export type TCreditFactor = z.infer<typeof ZCreditFactor>;
export type TFactorCode = (typeof FACTOR_CODES)[number];

export const TREND_DIRECTIONS = ['up', 'down', 'stable'] as const;
export const TREND_PERIODS = ['1month', '3months', '6months', '12months'] as const;
export const ZCreditTrend = z
  .object({
    direction: z.enum(TREND_DIRECTIONS),
    change: z.number().int().meta({ description: 'Points gained (positive) or lost (negative) over `period`.', example: 12 }),
    period: z.enum(TREND_PERIODS).meta({ example: '3months' }),
  })
  .meta({ id: 'CreditTrend' });
export type TCreditTrend = z.infer<typeof ZCreditTrend>;

export const ZCreditScore = z
  .object({
    score: ZScoreValue,
    scoreDate: ZDate,
    scoreRange: z.object({
      min: z.number().int().meta({ example: SCORE_MIN }),
      max: z.number().int().meta({ example: SCORE_MAX }),
    }),
    rating: ZCreditRating,
    bureau: ZCreditBureau,
    factors: z.array(ZCreditFactor),
    trend: ZCreditTrend,
  })
  .meta({ id: 'CreditScore' });
export type TCreditScore = z.infer<typeof ZCreditScore>;

export const ZScoreHistoryEntry = z.object({ score: ZScoreValue, date: ZDate }).meta({ id: 'ScoreHistoryEntry' });
export type TScoreHistoryEntry = z.infer<typeof ZScoreHistoryEntry>;

export const MAX_HISTORY_MONTHS = 84;
export const ZCreditHistoryQuery = z.strictObject({
  months: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, `must be between 1 and ${MAX_HISTORY_MONTHS}`)
    .max(MAX_HISTORY_MONTHS, `must be between 1 and ${MAX_HISTORY_MONTHS}`)
    .default(12)
    .meta({ description: `How many months back, 1–${MAX_HISTORY_MONTHS}.`, example: 12 }),
  ...ZPageQuery.shape,
});
export type TCreditHistoryQuery = z.infer<typeof ZCreditHistoryQuery>;

/** Refresh now: at most one pull a user a day, because every bureau pull is billed. */
export const MANUAL_REFRESH_INTERVAL_HOURS = 24;

export const ZCreditScoreRefreshResult = ZCreditScore.extend({
  previousScore: ZScoreValue.nullable().meta({ description: 'The score before this refresh; null if there was none.' }),
  refreshAvailableAt: ZTimestamp.meta({
    description: `When the next refresh now is allowed: ${MANUAL_REFRESH_INTERVAL_HOURS} hours after this one.`,
  }),
}).meta({ id: 'CreditScoreRefreshResult' });
export type TCreditScoreRefreshResult = z.infer<typeof ZCreditScoreRefreshResult>;
