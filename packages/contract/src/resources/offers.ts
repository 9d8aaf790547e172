import { instantInput, ZClickId, ZOfferId, ZPageQuery, ZTimestamp, ZUserId } from '../common.ts';
import { z } from '../zod.ts';

export const OFFER_TYPES = ['credit_card', 'loan', 'mortgage'] as const;
export type TOfferType = (typeof OFFER_TYPES)[number];
export const ZOfferType = z
  .enum(OFFER_TYPES, `must be one of ${OFFER_TYPES.join(', ')}`)
  .meta({ id: 'OfferType', example: 'credit_card' });

/** Values of the `status` filter on offer lists; an offer is expired once `expiresAt` has passed. */
export const OFFER_STATUS_FILTERS = ['active', 'expired', 'all'] as const;
export const ZOfferStatusFilter = z
  .enum(OFFER_STATUS_FILTERS, `must be one of ${OFFER_STATUS_FILTERS.join(', ')}`)
  .default('active')
  .meta({ description: '`active` (default): not yet expired; `expired`: past `expiresAt`; `all`: both.' });

export const APR_TYPES = ['variable', 'fixed'] as const;

export const ZOffer = z
  .object({
    offerId: ZOfferId,
    type: ZOfferType,
    provider: z.string().meta({ example: 'Northwind Bank' }),
    name: z.string().meta({ example: 'Northwind Cash Rewards Card' }),
    description: z.string(),
    apr: z
      .object({
        min: z.number().min(0).meta({ description: 'Lowest APR, in percent.', example: 19.24 }),
        max: z.number().min(0).meta({ description: 'Highest APR, in percent.', example: 29.99 }),
        type: z.enum(APR_TYPES).meta({ example: 'variable' }),
      })
      .meta({ id: 'OfferApr' }),
    creditLimit: z
      .object({ min: z.number().min(0), max: z.number().min(0) })
      .nullable()
      .meta({
        description:
          'Credit line for cards; amount that can be borrowed for loans and mortgages. ' + 'Null when the provider states none.',
        example: { min: 1000, max: 15000 },
      }),
    annualFee: z.number().min(0).meta({ description: 'Yearly fee in USD; 0 when there is none.', example: 0 }),
    signupBonus: z
      .object({
        amount: z.number().min(0).meta({ example: 200 }),
        requirement: z.string().meta({ example: 'Spend $500 in the first 3 months' }),
      })
      .nullable()
      .meta({ description: 'Null when the offer has no bonus (loans and mortgages usually have none).' }),
    preQualified: z.boolean().meta({
      description: 'True when the user’s score meets the provider’s criteria. Always false in the catalogue (no user).',
    }),
    applicationUrl: z.url().meta({ example: 'https://apply.example.com/northwind/cash-rewards' }),
    expiresAt: ZTimestamp,
    estimatedSavings: z
      .object({
        monthly: z.number().min(0).meta({ description: 'USD a month saved against the account’s payment now.', example: 48 }),
        total: z.number().min(0).meta({ description: 'USD saved over the account’s remaining term.', example: 1730 }),
        comparedToAccountId: z.string().meta({
          description: 'The account on the user’s credit report this offer would refinance (`GET …/credit-report`).',
          example: 'acc_3f9a1c07d2b84e6a5c1d',
        }),
        offeredApr: z
          .number()
          .min(0)
          .meta({ description: 'The APR assumed for the user’s score band, in percent.', example: 6.9 }),
      })
      .nullable()
      .meta({
        id: 'OfferSavings',
        description:
          'On a user’s offers: what refinancing an account on the user’s credit file with this offer would save, from ' +
          'the two APRs and the remaining term. Null when no account on file can be refinanced by it for less, and ' +
          'always null in the catalogue.',
      }),
  })
  .meta({ id: 'Offer' });
export type TOffer = z.infer<typeof ZOffer>;

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
  })
  .meta({ id: 'OfferClick' });
export type TOfferClick = z.infer<typeof ZOfferClick>;

export const ZListUserOffersQuery = z.strictObject({
  ...ZPageQuery.shape,
  type: ZOfferType.optional(),
  status: ZOfferStatusFilter,
});
export type TListUserOffersQuery = z.infer<typeof ZListUserOffersQuery>;

export const ZListOffersCatalogQuery = z.strictObject({
  ...ZPageQuery.shape,
  type: ZOfferType.optional(),
  status: ZOfferStatusFilter,
});
export type TListOffersCatalogQuery = z.infer<typeof ZListOffersCatalogQuery>;

export const ZUserOfferParams = z.strictObject({ userId: ZUserId, offerId: ZOfferId });
