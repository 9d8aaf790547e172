import type {
  TListOffersCatalogQuery,
  TListUserOffersQuery,
  TOffer,
  TOfferClick,
  TOfferClickInput,
  TPagination,
  TSandboxConversion,
} from '@credit/contract';
import { LRUCache } from 'lru-cache';
import type { CreditFile } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import { notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { sharedAnswerData } from '../../core/shared-answer.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { accountIdOf, creditFileOnRecord, type FileOnRecord, getCurrentScore, requireActiveUser } from '../credit/service.ts';
import { CATALOGUE, type DatedOffer, datedCatalogue, findOffer, isActive, toOffer } from './catalogue.ts';
import { decodeOfferCursor, encodeOfferCursor, type OfferListKey } from './cursor.ts';
import { rankForUser } from './ranking.ts';
import { findConversionOfClick, insertClick, insertConversion, lockLatestClick } from './repo.ts';
import { accountsWorthComparing, type RefinanceableAccount, refinanceableAccounts } from './savings.ts';

/** A client clock may run a little fast; a click further ahead than this is refused. */
export const CLICK_FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
/** Clicks queued offline (mobile) may arrive late, but not from before the offer could have been shown. */
export const CLICK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

type OfferFilters = Pick<TListOffersCatalogQuery, 'type' | 'status'>;

const matchingOffers = (now: Date, filters: OfferFilters): DatedOffer[] =>
  datedCatalogue(now).filter(
    (offer) =>
      (!filters.type || offer.type === filters.type) &&
      (filters.status === 'all' || isActive(offer, now) === (filters.status === 'active')),
  );

/** Where a page of `count` items from `offset` leaves a list of `total`: a signed cursor bound to the list and its filters. */
const paginationOf = (ctx: AppContext, key: OfferListKey, offset: number, count: number, total: number): TPagination => {
  const next = offset + count;
  const hasMore = next < total;
  return { hasMore, nextCursor: hasMore ? encodeOfferCursor(cursorsOf(ctx), key, next) : null, total };
};

const listKeyOf = (list: string, query: TListOffersCatalogQuery): OfferListKey => ({
  list,
  type: query.type ?? null,
  status: query.status,
});

/** The offset a page request starts at: 0, or where its cursor (issued for this list and these filters) points. */
const offsetOf = (ctx: AppContext, key: OfferListKey, query: TListOffersCatalogQuery) =>
  query.cursor ? decodeOfferCursor(cursorsOf(ctx), query.cursor, key) : 0;

/** One page of an already ordered list, with a signed offset cursor bound to the list and its filters. */
const pageOfOffers = <T>(
  ctx: AppContext,
  list: string,
  query: TListOffersCatalogQuery,
  offers: readonly T[],
  toItem: (offer: T) => TOffer,
): { items: TOffer[]; pagination: TPagination } => {
  const key = listKeyOf(list, query);
  const offset = offsetOf(ctx, key, query);
  // Only the page is shaped for the answer.
  const items = offers.slice(offset, offset + query.limit).map(toItem);
  return { items, pagination: paginationOf(ctx, key, offset, items.length, offers.length) };
};

/** The catalogue, not tied to a user: nobody is pre-qualified, display order. */
export { type DatedOffer, findOffer, isActive, SANDBOX_APPLY_PREFIX } from './catalogue.ts';

export const listCatalogue = async (ctx: AppContext, query: TListOffersCatalogQuery) => {
  const offers = matchingOffers(ctx.clock.now(), query);
  return pageOfOffers(ctx, 'catalogue', query, offers, (offer) => toOffer(offer, false, ctx.config));
};

/**
 * Recent pages, keyed by everything a page depends on: the month (catalogue.ts), the score, the savings basis, the
 * filters, offset and size. Kept per config (the application URLs), frozen and marked shared: hits reuse the JSON.
 */
const rankedPages = new WeakMap<AppContext['config'], LRUCache<string, { items: readonly TOffer[]; total: number }>>();
const RANKED_PAGES_KEPT = 2_000;

/** What a user's savings are worked out from: the file on record's accounts an offer could refinance, and their key. */
interface SavingsBasis {
  /** The accounts' figures, or '' when no offer could refinance any (the page is then the score's alone). */
  key: string;
  accounts: readonly RefinanceableAccount[];
}

/** Worked out once per file on record, like its factors (the read cache holds the same object until the next pull). */
const basisByFile = new WeakMap<CreditFile, SavingsBasis>();
const savingsBasisOf = (userId: string, record: FileOnRecord): SavingsBasis => {
  const known = basisByFile.get(record.file);
  if (known) return known;
  const accounts = accountsWorthComparing(
    CATALOGUE,
    refinanceableAccounts(record.file, record.asOf, (tradelineId) => accountIdOf(userId, tradelineId)),
  );
  // By content, not pull time: a pull with the same asOf (a frozen test clock) can still change a balance.
  const key = accounts.map((a) => `${a.accountId}:${a.kind}:${a.balance}:${a.apr}:${a.monthlyPayment}:${a.remainingMonths}`);
  const basis = { key: key.join(','), accounts };
  basisByFile.set(record.file, basis);
  return basis;
};

const rankedPage = (
  ctx: AppContext,
  now: Date,
  score: number,
  basis: SavingsBasis,
  query: TListUserOffersQuery,
  offset: number,
) => {
  let pages = rankedPages.get(ctx.config);
  if (!pages) {
    pages = new LRUCache({ max: RANKED_PAGES_KEPT });
    rankedPages.set(ctx.config, pages);
  }
  const key = `${now.getUTCFullYear() * 12 + now.getUTCMonth()}|${score}|${basis.key}|${query.type ?? ''}|${query.status}|${offset}|${query.limit}`;
  let page = pages.get(key);
  if (!page) {
    const ranked = rankForUser(matchingOffers(now, query), score, basis.accounts);
    const items = ranked
      .slice(offset, offset + query.limit)
      .map((r) => Object.freeze(toOffer(r.offer, r.preQualified, ctx.config, r.estimatedSavings)));
    page = Object.freeze({ items: sharedAnswerData(Object.freeze(items)), total: ranked.length });
    pages.set(key, page);
  }
  return page;
};

/**
 * The catalogue for one user: `preQualified` and the order follow the user's current score, and offers that would
 * refinance an account on the file on record for less carry `estimatedSavings` and come first.
 */
export const listUserOffers = async (ctx: AppContext, caller: Caller, userId: string, query: TListUserOffersQuery) => {
  const user = await requireActiveUser(ctx, caller, userId);
  const record = await creditFileOnRecord(ctx, user);
  const { score } = await getCurrentScore(ctx, user);
  const key = listKeyOf(user.id, query);
  const offset = offsetOf(ctx, key, query);
  const { items, total } = rankedPage(ctx, ctx.clock.now(), score, savingsBasisOf(user.id, record), query, offset);
  return { items: items as TOffer[], pagination: paginationOf(ctx, key, offset, items.length, total) };
};

/** When the user clicked: the client's timestamp if plausible, else now. */
const clickTime = (input: TOfferClickInput, now: Date): Date => {
  if (!input.timestamp) return now;
  const at = new Date(input.timestamp);
  if (at.getTime() > now.getTime() + CLICK_FUTURE_TOLERANCE_MS) {
    throw validationError([{ field: 'timestamp', message: 'must not be more than 5 minutes in the future' }]);
  }
  if (at.getTime() < now.getTime() - CLICK_MAX_AGE_MS) {
    throw validationError([{ field: 'timestamp', message: 'must not be more than 30 days in the past' }]);
  }
  return at;
};

/**
 * Records a click on an offer the user can see: an active catalogue offer (404 otherwise), for an
 * active user whose file is readable (a frozen file shows no offers, so it takes no clicks).
 * The click and its `offer.clicked` event commit together.
 */
export const recordOfferClick = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  offerId: string,
  input: TOfferClickInput,
): Promise<TOfferClick> => {
  const user = await requireActiveUser(ctx, caller, userId);
  await creditFileOnRecord(ctx, user);
  const now = ctx.clock.now();
  const offer = findOffer(offerId, now);
  if (!offer || !isActive(offer, now)) throw notFound('Offer');
  const clickedAt = clickTime(input, now);
  const clickId = ctx.ids.id('clk');
  await ctx.db.transaction(async (tx) => {
    await insertClick(tx, {
      id: clickId,
      userId: user.id,
      clientId: caller.clientId,
      offerId,
      source: input.source ?? null,
      metadata: input.metadata ?? null,
      clickedAt,
      recordedAt: now,
    });
    await recordEvent(tx, ctx.ids, {
      clientId: caller.clientId,
      type: 'offer.clicked',
      data: {
        userId: user.id,
        externalUserId: user.external_user_id,
        offerId,
        offerType: offer.type,
        provider: offer.provider,
        clickId,
      },
      createdAt: now,
    });
  });
  return { clickId, offerId, userId: user.id, recordedAt: now.toISOString() };
};

/**
 * Sandbox: the user completed the application behind their latest click on the offer. A click
 * converts at most once: converting it again answers the original conversion and emits nothing.
 * The offer may have expired since the click; an id outside the catalogue is a 404.
 */
export const convertOffer = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  offerId: string,
): Promise<TSandboxConversion> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const now = ctx.clock.now();
  const offer = findOffer(offerId, now);
  if (!offer) throw notFound('Offer');
  return ctx.db.transaction(async (tx) => {
    const click = await lockLatestClick(tx, caller.clientId, user.id, offerId);
    if (!click) throw notFound('Click on this offer by this user');
    const existing = await findConversionOfClick(tx, caller.clientId, click.id);
    if (existing) {
      return { userId: user.id, offerId, clickId: click.id, convertedAt: new Date(existing.converted_at).toISOString() };
    }
    await insertConversion(tx, {
      id: ctx.ids.id('cnv'),
      clickId: click.id,
      userId: user.id,
      clientId: caller.clientId,
      offerId,
      convertedAt: now,
    });
    const convertedAt = now.toISOString();
    await recordEvent(tx, ctx.ids, {
      clientId: caller.clientId,
      type: 'offer.converted',
      data: {
        userId: user.id,
        externalUserId: user.external_user_id,
        offerId,
        offerType: offer.type,
        provider: offer.provider,
        clickId: click.id,
        convertedAt,
      },
      createdAt: now,
    });
    return { userId: user.id, offerId, clickId: click.id, convertedAt };
  });
};
