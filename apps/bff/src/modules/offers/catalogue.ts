import type {
  TOffer,
  TOfferCosts,
  TOfferQualification,
  TOfferRules,
  TOfferSavings,
  TOfferStatus,
  TOfferTier,
  TOfferType,
} from '@credit/contract';
import type { Config } from '../../config.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';

/** What a bank defines an offer by: the body kept per version (`offers.body`, `offer_versions.body`). */
export interface OfferBody {
  type: TOfferType;
  provider: string;
  name: string;
  description: string;
  aprType: 'fixed' | 'variable';
  tiers: TOfferTier[];
  rules: TOfferRules;
  costs: TOfferCosts;
  termMonths: number | null;
  signupBonus: { amount: number; requirement: string } | null;
  applicationUrl: string;
}

/** The statuses stored: `expired` is read from `expiresAt`, never stored. */
export type StoredStatus = Exclude<TOfferStatus, 'expired'>;

/** One offer of a client's catalogue, as stored. */
export interface CatalogueOffer {
  clientId: string;
  offerId: string;
  version: number;
  status: StoredStatus;
  body: OfferBody;
  startsAt: Date | null;
  expiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The status a partner reads: an active or paused offer past its `expiresAt` is expired. */
export const statusOf = (offer: CatalogueOffer, now: Date): TOfferStatus =>
  (offer.status === 'active' || offer.status === 'paused') && offer.expiresAt !== null && offer.expiresAt <= now
    ? 'expired'
    : offer.status;

/** Whether customers see the offer now: active, started and not expired. */
export const isShownNow = (offer: CatalogueOffer, now: Date): boolean =>
  statusOf(offer, now) === 'active' && (offer.startsAt === null || offer.startsAt <= now);

/** The tier whose score band holds `score`, if any. */
export const tierFor = (body: Pick<OfferBody, 'tiers'>, score: number): TOfferTier | undefined =>
  body.tiers.find((tier) => score >= tier.minScore && score <= tier.maxScore);

/** The sandbox's stand-in for a bank's application page (modules/sandbox-landing), on this API. */
export const SANDBOX_APPLY_PREFIX = '/sandbox/apply/';

/** `.example` hosts never answer (RFC 2606): in the sandbox, Apply on one leads to the API's own landing page. */
const isExampleHost = (url: string) => {
  try {
    return new URL(url.replaceAll('{', '').replaceAll('}', '')).hostname.endsWith('.example');
  } catch {
    return false;
  }
};

/** Where Apply leads, placeholders kept: the bank's page, or in the sandbox the landing page for a fictional host. */
export const applicationTemplateOf = (offer: CatalogueOffer, config: Config): string =>
  config.APP_ENV === 'sandbox' && isExampleHost(offer.body.applicationUrl)
    ? `${publicBaseUrl(config)}${SANDBOX_APPLY_PREFIX}${encodeURIComponent(offer.offerId)}?clickId={clickId}`
    : offer.body.applicationUrl;

/** The template as a URI: its placeholders percent-encoded (they are filled in the click's answer). */
const encodedTemplate = (template: string) => template.replaceAll('{', '%7B').replaceAll('}', '%7D');

/** The application URL of one click: `{clickId}` and `{externalUserId}` filled, URL-encoded. */
export const applicationUrlForClick = (
  offer: CatalogueOffer,
  config: Config,
  click: { clickId: string; externalUserId: string },
): string =>
  applicationTemplateOf(offer, config)
    .replaceAll('{clickId}', encodeURIComponent(click.clickId))
    .replaceAll('{externalUserId}', encodeURIComponent(click.externalUserId));

const rangeOf = (tiers: readonly TOfferTier[]) => {
  const limits = tiers.flatMap((tier) => (tier.creditLimit ? [tier.creditLimit] : []));
  if (limits.length === 0) return null;
  return { min: Math.min(...limits.map((l) => l.min)), max: Math.max(...limits.map((l) => l.max)) };
};

/** The partner-facing shape; `qualification` and `estimatedSavings` are a user's (null in the catalogue). */
export const toOffer = (
  offer: CatalogueOffer,
  now: Date,
  config: Config,
  forUser: { qualification: TOfferQualification; estimatedSavings: TOfferSavings } | null = null,
): TOffer => {
  const { body } = offer;
  const aprs = body.tiers.map((tier) => tier.apr);
  return {
    offerId: offer.offerId,
    type: body.type,
    provider: body.provider,
    name: body.name,
    description: body.description,
    apr: { min: Math.min(...aprs), max: Math.max(...aprs), type: body.aprType },
    creditLimit: rangeOf(body.tiers),
    annualFee: body.costs.annualFee ?? 0,
    signupBonus: body.signupBonus,
    preQualified: forUser?.qualification.qualifies ?? false,
    applicationUrl: encodedTemplate(applicationTemplateOf(offer, config)),
    status: statusOf(offer, now),
    startsAt: offer.startsAt?.toISOString() ?? null,
    expiresAt: offer.expiresAt?.toISOString() ?? null,
    version: offer.version,
    termMonths: body.termMonths,
    rules: body.rules,
    tiers: body.tiers.map((tier) => ({ ...tier, creditLimit: tier.creditLimit ?? null })),
    costs: {
      annualFee: body.costs.annualFee ?? 0,
      originationFeePercent: body.costs.originationFeePercent ?? null,
      balanceTransferFeePercent: body.costs.balanceTransferFeePercent ?? null,
      introApr: body.costs.introApr ?? null,
    },
    createdAt: offer.createdAt.toISOString(),
    updatedAt: offer.updatedAt.toISOString(),
    qualification: forUser?.qualification ?? null,
    estimatedSavings: forUser?.estimatedSavings ?? null,
  };
};
