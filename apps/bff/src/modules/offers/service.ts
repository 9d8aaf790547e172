import {
  offerShapeProblems,
  type TAudienceMember,
  type TAudiencePreview,
  type TAudiencePreviewInput,
  type TCreateOfferInput,
  type TListOffersCatalogQuery,
  type TListUserOffersQuery,
  type TOffer,
  type TOfferClick,
  type TOfferClickInput,
  type TOfferClickRecord,
  type TOfferImpressions,
  type TOfferImpressionsInput,
  type TOutcomeStage,
  type TPagination,
  type TRecordOutcomeInput,
  type TSandboxConversion,
  type TUpdateOfferInput,
} from '@credit/contract';
import type { CreditFile } from '../../bureau/provider.ts';
import { writeTransaction } from '../../cache/invalidation.ts';
import { offersTag, userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { sharedAnswerData } from '../../core/shared-answer.ts';
import type { Queryable } from '../../db/db.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { recordAudit } from '../audit/service.ts';
import { accountIdOf, creditFileOnRecord, getCurrentScore, loadFileOnRecord, requireActiveUser } from '../credit/service.ts';
import { countOffers, countProgram, dayOf, forgetCustomerScore, noteCustomerScore } from '../program/service.ts';
import { enrolledAddressState, type UserRow } from '../users/service.ts';
import {
  applicationUrlForClick,
  type CatalogueOffer,
  isShownNow,
  type OfferBody,
  type StoredStatus,
  statusOf,
  tierFor,
  toOffer,
} from './catalogue.ts';
import {
  claimSampleCatalogue,
  findClientAwaitingSamples,
  findOffer,
  findOfferAnyClient,
  findOfferVersion,
  listClientOffers,
  lockOffer,
  saveOffer,
} from './catalogue-repo.ts';
import { decodeOfferCursor, encodeOfferCursor, type OfferListKey } from './cursor.ts';
import { type OfferFacts, offerFactsOf, qualify, savingsOf } from './eligibility.ts';
import {
  deleteProfile,
  factsOfRow,
  findProfile,
  listUsersWithoutProfile,
  lockProfile,
  scanAudienceCandidates,
  upsertProfile,
} from './profile-repo.ts';
import {
  findClick,
  findClickAnyClient,
  findLatestClick,
  insertClick,
  insertImpressions,
  insertOutcome,
  listOutcomes,
} from './repo.ts';
import { sampleCatalogue } from './sample-catalogue.ts';

export { type CatalogueOffer, SANDBOX_APPLY_PREFIX, statusOf } from './catalogue.ts';
export { getProgramResults } from './results.ts';

/** A client clock may run a little fast; a click further ahead than this is refused. */
export const CLICK_FUTURE_TOLERANCE_MS = 5 * 60 * 1000;
/** Clicks queued offline (mobile) may arrive late, but not from before the offer could have been shown. */
export const CLICK_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const conflict = (message: string) => new ApiError('OFFER_STATE_CONFLICT', message);

/**
 * The client's whole catalogue, cached until one of its offers changes (on any instance). A sandbox client's first
 * read gives it the sample catalogue, whichever way the client was created (API bootstrap, CLI, demo, tests).
 */
export const catalogueOf = async (ctx: AppContext, clientId: string): Promise<readonly CatalogueOffer[]> => {
  // Before the cached read: seeding touches the catalogue's tag, which would throw away a load that seeded.
  const given = ctx.services.offerSamplesGiven;
  if (ctx.config.APP_ENV === 'sandbox' && !given.has(clientId)) {
    const awaiting = await findClientAwaitingSamples(ctx.db, clientId);
    if (awaiting) await giveSampleCatalogue(ctx, awaiting);
    given.add(clientId);
  }
  return (
    (await ctx.readCache.read(
      `offers:${clientId}`,
      () => listClientOffers(ctx.db, clientId),
      () => [offersTag(clientId)],
    )) ?? []
  );
};

const findCatalogueOffer = async (ctx: AppContext, clientId: string, offerId: string) => {
  const offer = (await catalogueOf(ctx, clientId)).find((o) => o.offerId === offerId);
  if (!offer) throw notFound('Offer');
  return offer;
};

/** Where a page of `count` items from `offset` leaves a list of `total`: a signed cursor bound to the list and its filters. */
const paginationOf = (ctx: AppContext, key: OfferListKey, offset: number, count: number, total: number): TPagination => {
  const next = offset + count;
  const hasMore = next < total;
  return { hasMore, nextCursor: hasMore ? encodeOfferCursor(cursorsOf(ctx), key, next) : null, total };
};

const pageOf = <T>(ctx: AppContext, key: OfferListKey, cursor: string | undefined, limit: number, items: readonly T[]) => {
  const offset = cursor ? decodeOfferCursor(cursorsOf(ctx), cursor, key) : 0;
  const page = items.slice(offset, offset + limit);
  return { page, pagination: paginationOf(ctx, key, offset, page.length, items.length) };
};

export const listCatalogue = async (ctx: AppContext, caller: Caller, query: TListOffersCatalogQuery) => {
  const now = ctx.clock.now();
  const offers = (await catalogueOf(ctx, caller.clientId)).filter(
    (offer) =>
      (!query.type || offer.body.type === query.type) && (query.status === 'all' || statusOf(offer, now) === query.status),
  );
  const key = { list: `catalogue:${caller.clientId}`, type: query.type ?? null, status: query.status };
  const { page, pagination } = pageOf(ctx, key, query.cursor, query.limit, offers);
  return { items: page.map((offer) => toOffer(offer, now, ctx.config)), pagination };
};

export const getCatalogueOffer = async (ctx: AppContext, caller: Caller, offerId: string): Promise<TOffer> =>
  toOffer(await findCatalogueOffer(ctx, caller.clientId, offerId), ctx.clock.now(), ctx.config);

/** The offer with the body it had at `version`: the terms a click of that version saw. */
export const getOfferVersion = async (ctx: AppContext, caller: Caller, offerId: string, version: number): Promise<TOffer> => {
  const offer = await findCatalogueOffer(ctx, caller.clientId, offerId);
  const body = version === offer.version ? offer.body : await findOfferVersion(ctx.db, caller.clientId, offerId, version);
  if (!body) throw notFound('Offer version');
  return toOffer({ ...offer, version, body }, ctx.clock.now(), ctx.config);
};

const assertShape = (body: OfferBody, startsAt: Date | null, expiresAt: Date | null) => {
  const problems = offerShapeProblems({
    type: body.type,
    tiers: body.tiers,
    termMonths: body.termMonths,
    startsAt: startsAt?.toISOString() ?? null,
    expiresAt: expiresAt?.toISOString() ?? null,
  });
  if (problems.length > 0) throw validationError(problems);
};

const instant = (value: string | null | undefined): Date | null => (value ? new Date(value) : null);

/** Every change to a catalogue: its offer saved with a new version and an `offer.changed` entry, in one transaction. */
const writeOffer = (ctx: AppContext, offer: CatalogueOffer, isNew: boolean, change: string) =>
  writeTransaction(ctx.db, ctx.readCache, async (tx, touches) => {
    touches(offersTag(offer.clientId));
    await saveOffer(tx, offer, isNew);
    await recordAudit(
      ctx,
      {
        type: 'offer.changed',
        clientId: offer.clientId,
        subject: { offerId: offer.offerId, change, version: String(offer.version) },
      },
      tx,
    );
  });

export const createOffer = async (ctx: AppContext, caller: Caller, input: TCreateOfferInput): Promise<TOffer> => {
  const now = ctx.clock.now();
  const body: OfferBody = {
    type: input.type,
    provider: input.provider ?? caller.principal.client.name,
    name: input.name,
    description: input.description,
    aprType: input.aprType,
    tiers: input.tiers,
    rules: input.rules ?? {},
    costs: input.costs ?? { annualFee: 0 },
    termMonths: input.termMonths ?? null,
    signupBonus: input.signupBonus ?? null,
    applicationUrl: input.applicationUrl,
  };
  const startsAt = instant(input.startsAt);
  const expiresAt = instant(input.expiresAt);
  assertShape(body, startsAt, expiresAt);
  const offer: CatalogueOffer = {
    clientId: caller.clientId,
    offerId: ctx.ids.id('off'),
    version: 1,
    status: input.status,
    body,
    startsAt,
    expiresAt,
    createdAt: now,
    updatedAt: now,
  };
  await writeOffer(ctx, offer, true, 'created');
  return toOffer(offer, now, ctx.config);
};

/** Changes a locked offer with `change`, as one new version; unchanged when `change` answers undefined. */
const changeOffer = async (
  ctx: AppContext,
  caller: Caller,
  offerId: string,
  what: string,
  change: (offer: CatalogueOffer, now: Date) => CatalogueOffer | undefined,
): Promise<TOffer> => {
  const now = ctx.clock.now();
  const result = await writeTransaction(ctx.db, ctx.readCache, async (tx, touches) => {
    const current = await lockOffer(tx, caller.clientId, offerId);
    if (!current) throw notFound('Offer');
    const changed = change(current, now);
    if (!changed) return current;
    const next = { ...changed, version: current.version + 1, updatedAt: now };
    touches(offersTag(caller.clientId));
    await saveOffer(tx, next, false);
    await recordAudit(
      ctx,
      { type: 'offer.changed', clientId: caller.clientId, subject: { offerId, change: what, version: String(next.version) } },
      tx,
    );
    return next;
  });
  return toOffer(result, now, ctx.config);
};

export const updateOffer = (ctx: AppContext, caller: Caller, offerId: string, input: TUpdateOfferInput) =>
  changeOffer(ctx, caller, offerId, 'updated', (offer) => {
    if (offer.status === 'archived') throw conflict('An archived offer cannot change; create a new one.');
    const body: OfferBody = {
      ...offer.body,
      ...Object.fromEntries(
        Object.entries(input).filter(([key, value]) => value !== undefined && key !== 'startsAt' && key !== 'expiresAt'),
      ),
    };
    const startsAt = input.startsAt === undefined ? offer.startsAt : instant(input.startsAt);
    const expiresAt = input.expiresAt === undefined ? offer.expiresAt : instant(input.expiresAt);
    assertShape(body, startsAt, expiresAt);
    return { ...offer, body, startsAt, expiresAt };
  });

const TRANSITIONS: Record<'pause' | 'resume' | 'archive', { to: StoredStatus; from: readonly StoredStatus[] }> = {
  pause: { to: 'paused', from: ['active'] },
  resume: { to: 'active', from: ['paused', 'draft'] },
  archive: { to: 'archived', from: ['draft', 'active', 'paused'] },
};

export const transitionOffer = (ctx: AppContext, caller: Caller, offerId: string, verb: keyof typeof TRANSITIONS) =>
  changeOffer(ctx, caller, offerId, verb, (offer) => {
    const { to, from } = TRANSITIONS[verb];
    if (offer.status === to) return undefined;
    if (!from.includes(offer.status))
      throw conflict(`A ${offer.status} offer cannot be ${verb === 'pause' ? 'paused' : `${verb}d`}.`);
    return { ...offer, status: to };
  });

/** A new sandbox client's sample catalogue under its own name, once per client (a production client starts empty). */
export const giveSampleCatalogue = async (ctx: AppContext, client: { id: string; name: string }): Promise<void> => {
  const now = ctx.clock.now();
  await writeTransaction(ctx.db, ctx.readCache, async (tx, touches) => {
    if (!(await claimSampleCatalogue(tx, client.id))) return;
    touches(offersTag(client.id));
    // Oldest first in the list is the last created: created a millisecond apart, in display order.
    const bodies = sampleCatalogue(client.name.replace(/\s*\(.*\)\s*$/, '') || client.name);
    for (const [i, body] of bodies.entries()) {
      const at = new Date(now.getTime() - i);
      await saveOffer(
        tx,
        {
          clientId: client.id,
          offerId: ctx.ids.id('off'),
          version: 1,
          status: 'active',
          body,
          startsAt: null,
          expiresAt: null,
          createdAt: at,
          updatedAt: at,
        },
        true,
      );
    }
  });
};

// ----- What a customer sees -----

/** The facts the rules read for a user: the profile saved with the file on record, else worked out from that file. */
const factsForUser = async (ctx: AppContext, user: UserRow, file: CreditFile, asOf: Date, score: number): Promise<OfferFacts> => {
  const facts = await ctx.readCache.read(
    `offer-facts:${user.id}`,
    async () => {
      const row = await findProfile(ctx.db, user.id);
      if (row && new Date(row.as_of).getTime() === asOf.getTime()) return factsOfRow(row);
      return offerFactsOf(file, asOf, score, await enrolledAddressState(ctx, ctx.db, user), (id) => accountIdOf(user.id, id));
    },
    () => [userTag(user.id)],
  );
  // The score read may be newer than the file (a sandbox score refresh): the rules read the score shown.
  return (facts as OfferFacts).score === score ? (facts as OfferFacts) : { ...(facts as OfferFacts), score };
};

/**
 * A user's ranked offers, kept while the catalogue and the facts are the same objects (both cached until a write) and
 * within the minute (statuses follow `expiresAt`): a repeated read costs no qualification.
 */
const rankedByCatalogue = new WeakMap<readonly CatalogueOffer[], WeakMap<OfferFacts, Map<string, RankedOffer[]>>>();

interface RankedOffer {
  offer: CatalogueOffer;
  view: TOffer;
  unmet: number;
}

const rank = (a: RankedOffer, b: RankedOffer) =>
  Number(b.view.preQualified) - Number(a.view.preQualified) ||
  (a.view.estimatedSavings?.totalCostChange ?? 0) - (b.view.estimatedSavings?.totalCostChange ?? 0) ||
  a.unmet - b.unmet ||
  (a.view.qualification?.apr ?? Number.POSITIVE_INFINITY) - (b.view.qualification?.apr ?? Number.POSITIVE_INFINITY) ||
  b.offer.createdAt.getTime() - a.offer.createdAt.getTime() ||
  (a.offer.offerId < b.offer.offerId ? -1 : 1);

/**
 * The client's offers shown now, for one user: each pre-qualified against the file on record, with the user's tier and
 * reasons and the honest savings on an account it could refinance; qualifying offers first, largest saving first.
 */
export const listUserOffers = async (ctx: AppContext, caller: Caller, userId: string, query: TListUserOffersQuery) => {
  const user = await requireActiveUser(ctx, caller, userId);
  const record = await creditFileOnRecord(ctx, user);
  const { score } = await getCurrentScore(ctx, user);
  const facts = await factsForUser(ctx, user, record.file, record.asOf, score);
  const now = ctx.clock.now();
  const catalogue = await catalogueOf(ctx, caller.clientId);
  const byFacts = rankedByCatalogue.get(catalogue) ?? new WeakMap<OfferFacts, Map<string, RankedOffer[]>>();
  rankedByCatalogue.set(catalogue, byFacts);
  const lists = byFacts.get(facts) ?? new Map<string, RankedOffer[]>();
  byFacts.set(facts, lists);
  const listKey = `${Math.floor(now.getTime() / 60_000)}|${query.type ?? ''}|${query.status}`;
  let ranked = lists.get(listKey);
  if (!ranked) {
    ranked = catalogue
      .filter((offer) => {
        if (query.type && offer.body.type !== query.type) return false;
        // A customer's expired offers are those that ended while shown: a paused one stays hidden.
        const ended = offer.status === 'active' && statusOf(offer, now) === 'expired';
        if (query.status === 'expired') return ended;
        return isShownNow(offer, now) || (query.status === 'all' && ended);
      })
      .map((offer): RankedOffer => {
        const qualification = qualify(offer.body, facts);
        const estimatedSavings = savingsOf(offer.body, facts, qualification);
        const view = toOffer(offer, now, ctx.config, { qualification, estimatedSavings });
        return { offer, view, unmet: qualification.reasons.filter((r) => !r.met).length };
      })
      .sort(rank);
    if (lists.size > 8) lists.clear();
    lists.set(listKey, ranked);
  }
  const key = { list: user.id, type: query.type ?? null, status: query.status };
  const pages = pagesOfRanked.get(ranked) ?? new Map<string, OfferPage>();
  pagesOfRanked.set(ranked, pages);
  const pageKey = `${user.id}|${query.cursor ?? ''}|${query.limit}`;
  let answer = pages.get(pageKey);
  if (!answer) {
    const { page, pagination } = pageOf(ctx, key, query.cursor, query.limit, ranked);
    answer = { items: sharedAnswerData(page.map((r) => r.view)), pagination };
    if (pages.size > 16) pages.clear();
    pages.set(pageKey, answer);
  }
  return answer;
};

interface OfferPage {
  items: TOffer[];
  pagination: ReturnType<typeof paginationOf>;
}

/**
 * A ranked list's pages as answered, by user, cursor and limit: a customer reading the same page again within the
 * ranking's minute is answered the same bytes, written once (sharedAnswerData), without ranking or a cursor's work.
 */
const pagesOfRanked = new WeakMap<RankedOffer[], Map<string, OfferPage>>();

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
 * Records a click on an offer the user can see now (404 otherwise), for an active user whose file is readable, with the
 * version seen. The click, its `offer.clicked` event and the day's count commit together.
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
  const offer = (await catalogueOf(ctx, caller.clientId)).find((o) => o.offerId === offerId);
  if (!offer || !isShownNow(offer, now)) throw notFound('Offer');
  const clickedAt = clickTime(input, now);
  const clickId = ctx.ids.id('clk');
  await ctx.db.transaction(async (tx) => {
    await insertClick(tx, {
      id: clickId,
      userId: user.id,
      clientId: caller.clientId,
      offerId,
      offerVersion: offer.version,
      source: input.source ?? null,
      metadata: input.metadata ?? null,
      clickedAt,
      recordedAt: now,
    });
    await countProgram(tx, { clientId: caller.clientId, offerId, metric: 'clicks', at: now });
    await recordEvent(tx, ctx.ids, {
      clientId: caller.clientId,
      type: 'offer.clicked',
      data: {
        userId: user.id,
        externalUserId: user.external_user_id,
        offerId,
        offerType: offer.body.type,
        provider: offer.body.provider,
        clickId,
        offerVersion: offer.version,
      },
      createdAt: now,
    });
  });
  return {
    clickId,
    offerId,
    userId: user.id,
    recordedAt: now.toISOString(),
    offerVersion: offer.version,
    applicationUrl: applicationUrlForClick(offer, ctx.config, { clickId, externalUserId: user.external_user_id }),
  };
};

/** Counts the offer cards the user saw today, once per customer, offer and day; ids not in the catalogue are skipped. */
export const recordOfferImpressions = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TOfferImpressionsInput,
): Promise<TOfferImpressions> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const now = ctx.clock.now();
  const known = new Set((await catalogueOf(ctx, caller.clientId)).filter((o) => isShownNow(o, now)).map((o) => o.offerId));
  const offerIds = [...new Set(input.offerIds)].filter((id) => known.has(id));
  if (offerIds.length === 0) return { counted: 0, alreadyCounted: 0 };
  const counted = await ctx.db.transaction(async (tx) => {
    const fresh = await insertImpressions(tx, caller.clientId, user.id, offerIds, dayOf(now));
    await countOffers(tx, caller.clientId, 'impressions', fresh, now);
    return fresh.length;
  });
  return { counted, alreadyCounted: offerIds.length - counted };
};

// ----- Outcomes -----

/** Forward only: a stage's rank; `declined` ends an application that was not approved. */
const STAGE_RANK: Record<TOutcomeStage, number> = { applied: 1, approved: 2, declined: 2, funded: 3 };

/** The metrics a click newly counts in when it moves from `from` (its furthest stage, or none) to `to`. */
const metricsReached = (from: TOutcomeStage | null, to: TOutcomeStage) => {
  const before = from ? STAGE_RANK[from] : 0;
  const metrics: ('applications' | 'approvals' | 'declines' | 'funded')[] = [];
  if (before < 1) metrics.push('applications');
  if (to === 'declined') metrics.push('declines');
  else {
    if (STAGE_RANK[to] >= 2 && before < 2) metrics.push('approvals');
    if (to === 'funded') metrics.push('funded');
  }
  return metrics;
};

const clickRecordOf = (
  click: NonNullable<Awaited<ReturnType<typeof findClick>>>,
  outcomes: Awaited<ReturnType<typeof listOutcomes>>,
): TOfferClickRecord => {
  const stages = outcomes.map((o) => o.stage as TOutcomeStage);
  const furthest = stages.reduce<TOutcomeStage | null>(
    (best, s) => (!best || STAGE_RANK[s] > STAGE_RANK[best] || s === 'declined' ? s : best),
    null,
  );
  return {
    clickId: click.id,
    offerId: click.offer_id,
    offerVersion: click.offer_version === null ? null : Number(click.offer_version),
    userId: click.user_id,
    externalUserId: click.external_user_id,
    clickedAt: new Date(click.clicked_at).toISOString(),
    stage: furthest ?? 'clicked',
    outcomes: outcomes.map((o) => ({
      stage: o.stage as TOutcomeStage,
      amount: o.amount === null ? null : Number(o.amount),
      occurredAt: new Date(o.occurred_at).toISOString(),
      recordedAt: new Date(o.converted_at).toISOString(),
    })),
  };
};

export const getOfferClick = async (ctx: AppContext, caller: Caller, clickId: string): Promise<TOfferClickRecord> => {
  const click = await findClick(ctx.db, caller.clientId, clickId);
  if (!click) throw notFound('Click');
  return clickRecordOf(click, await listOutcomes(ctx.db, caller.clientId, clickId));
};

const assertAmount = (input: TRecordOutcomeInput) => {
  if (input.stage === 'funded' && input.amount === undefined) {
    throw validationError([{ field: 'amount', message: 'is required with stage funded' }]);
  }
  if ((input.stage === 'applied' || input.stage === 'declined') && input.amount !== undefined) {
    throw validationError([{ field: 'amount', message: `is not allowed with stage ${input.stage}` }]);
  }
};

/**
 * Records what became of the application behind a click, forward only, in one transaction with the click locked: the
 * stage, its `offer.converted` event and the program's counts. The same stage again answers the record unchanged.
 */
export const recordOfferOutcome = async (
  ctx: AppContext,
  caller: Caller,
  clickId: string,
  input: TRecordOutcomeInput,
): Promise<TOfferClickRecord> => {
  assertAmount(input);
  const now = ctx.clock.now();
  const occurredAt = input.occurredAt ? new Date(input.occurredAt) : now;
  if (occurredAt.getTime() > now.getTime() + CLICK_FUTURE_TOLERANCE_MS) {
    throw validationError([{ field: 'occurredAt', message: 'must not be more than 5 minutes in the future' }]);
  }
  return ctx.db.transaction(async (tx) => {
    const click = await findClick(tx, caller.clientId, clickId, true);
    if (!click) throw notFound('Click');
    if (occurredAt.getTime() < new Date(click.clicked_at).getTime() - CLICK_FUTURE_TOLERANCE_MS) {
      throw validationError([{ field: 'occurredAt', message: 'must not be before the click' }]);
    }
    const outcomes = await listOutcomes(tx, caller.clientId, clickId);
    const current = clickRecordOf(click, outcomes);
    if (outcomes.some((o) => o.stage === input.stage)) return current;
    const furthest = current.stage === 'clicked' ? null : current.stage;
    if (furthest === 'declined' || (furthest && STAGE_RANK[input.stage] <= STAGE_RANK[furthest])) {
      throw conflict(`This application is already ${furthest}; outcomes move forward only.`);
    }
    const amount = input.amount ?? null;
    await insertOutcome(tx, {
      id: ctx.ids.id('cnv'),
      clickId,
      userId: click.user_id,
      clientId: caller.clientId,
      offerId: click.offer_id,
      stage: input.stage,
      amount,
      occurredAt,
      recordedAt: now,
    });
    for (const metric of metricsReached(furthest, input.stage)) {
      await countProgram(tx, {
        clientId: caller.clientId,
        offerId: click.offer_id,
        metric,
        at: occurredAt,
        amount: metric === 'funded' ? (amount ?? 0) : 0,
      });
    }
    const offer = await findOffer(tx, caller.clientId, click.offer_id);
    await recordEvent(tx, ctx.ids, {
      clientId: caller.clientId,
      type: 'offer.converted',
      data: {
        userId: click.user_id,
        externalUserId: click.external_user_id,
        offerId: click.offer_id,
        offerType: offer?.body.type ?? 'loan',
        provider: offer?.body.provider ?? caller.principal.client.name,
        clickId,
        offerVersion: click.offer_version === null ? null : Number(click.offer_version),
        stage: input.stage,
        amount,
        convertedAt: occurredAt.toISOString(),
      },
      createdAt: now,
    });
    return clickRecordOf(click, await listOutcomes(tx, caller.clientId, clickId));
  });
};

/**
 * Sandbox: the application behind the user's latest click on the offer was funded, for the lowest amount of the
 * customer's tier (or the offer's): a shortcut over recordOfferOutcome. Converting again answers the same conversion.
 */
export const convertOffer = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  offerId: string,
): Promise<TSandboxConversion> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const offer = await findCatalogueOffer(ctx, caller.clientId, offerId);
  const click = await findLatestClick(ctx.db, caller.clientId, user.id, offerId);
  if (!click) throw notFound('Click on this offer by this user');
  const { score } = await getCurrentScore(ctx, user).catch(() => ({ score: 0 }));
  const limit = tierFor(offer.body, score)?.creditLimit ?? offer.body.tiers.find((t) => t.creditLimit)?.creditLimit;
  const existing = (await getOfferClick(ctx, caller, click.id)).outcomes.find((o) => o.stage === 'funded');
  const record = existing
    ? undefined
    : await recordOfferOutcome(ctx, caller, click.id, { stage: 'funded', amount: limit?.min ?? 1000 });
  const funded = existing ?? record?.outcomes.find((o) => o.stage === 'funded');
  return { userId: user.id, offerId, clickId: click.id, convertedAt: funded?.occurredAt ?? ctx.clock.now().toISOString() };
};

// ----- Audiences -----

const AUDIENCE_SCAN_BATCH = 1000;

/**
 * The client's candidates for `body` from `after` on, a scan batch at a time, each with the customers of the batch
 * who meet every rule and have a band: what an audience lists and a preview counts.
 */
async function* qualifyingBatches(ctx: AppContext, clientId: string, body: OfferBody, after: string) {
  const scores = body.tiers.flatMap((t) => [t.minScore, t.maxScore]);
  const minScore = Math.max(body.rules.minScore ?? 300, Math.min(...scores));
  const maxScore = Math.min(body.rules.maxScore ?? 850, Math.max(...scores));
  const now = ctx.clock.now();
  for (let from = after; ; ) {
    const rows = await scanAudienceCandidates(ctx.db, {
      clientId,
      minScore,
      maxScore,
      now,
      afterUserId: from,
      limit: AUDIENCE_SCAN_BATCH,
    });
    const qualifying = [];
    for (const row of rows) {
      const qualification = qualify(body, { ...factsOfRow(row), score: Number(row.score) });
      if (qualification.qualifies && qualification.apr !== null) qualifying.push({ row, qualification });
    }
    yield qualifying;
    if (rows.length < AUDIENCE_SCAN_BATCH) return;
    from = rows.at(-1)?.user_id ?? '';
  }
}

/**
 * How many customers would qualify today for terms not saved yet (an offer being written in the console): the same
 * scan as an audience, counted only, so no customer is named and nothing reaches the trail but the call itself.
 */
export const previewOfferAudience = async (
  ctx: AppContext,
  caller: Caller,
  input: TAudiencePreviewInput,
): Promise<TAudiencePreview> => {
  const body: OfferBody = {
    type: input.type,
    provider: caller.principal.client.name,
    name: '',
    description: '',
    aprType: 'fixed',
    tiers: input.tiers,
    rules: input.rules ?? {},
    costs: input.costs ?? { annualFee: 0 },
    termMonths: input.termMonths ?? null,
    signupBonus: null,
    applicationUrl: 'https://preview.invalid/',
  };
  // The terms a create or update would refuse get that 400 here too, not a count.
  assertShape(body, null, null);
  const qualifying = await oneScanAtATime(ctx.services.audiencePreviews, caller.clientId, async () => {
    let counted = 0;
    for await (const batch of qualifyingBatches(ctx, caller.clientId, body, '')) counted += batch.length;
    return counted;
  });
  return { qualifying, countedAt: ctx.clock.now().toISOString() };
};

/** Previews a client may have waiting behind its running one; past that it is told to retry. */
const MAX_WAITING_PREVIEWS = 3;

/**
 * A preview reads every customer of the client: one client's run one at a time, so an editor typing (or a script)
 * holds at most one database connection for them, and other clients' work is not queued behind it.
 */
const oneScanAtATime = <T>(lanes: AppContext['services']['audiencePreviews'], clientId: string, scan: () => Promise<T>) => {
  const lane = lanes.get(clientId) ?? { tail: Promise.resolve(), waiting: 0 };
  if (lane.waiting > MAX_WAITING_PREVIEWS) {
    throw new ApiError(
      'RATE_LIMIT_EXCEEDED',
      'Counts for this client are being computed already; retry in a second.',
      undefined,
      { retryAfter: 1 },
    );
  }
  lane.waiting += 1;
  lanes.set(clientId, lane);
  const result = lane.tail.then(scan);
  lane.tail = result.then(
    () => undefined,
    () => undefined,
  );
  void lane.tail.then(() => {
    lane.waiting -= 1;
    if (lane.waiting === 0 && lanes.get(clientId) === lane) lanes.delete(clientId);
  });
  return result;
};

/**
 * The client's customers who qualify for the offer today: enrolled, verified, consenting, file not frozen, and every
 * rule met by the file on record (the same check as their offers list). Scanned by user id in batches; the count is
 * the whole scan's.
 */
export const listOfferAudience = async (
  ctx: AppContext,
  caller: Caller,
  offerId: string,
  query: { limit: number; cursor?: string | undefined },
): Promise<{ items: TAudienceMember[]; pagination: TPagination }> => {
  const offer = await findCatalogueOffer(ctx, caller.clientId, offerId);
  const name = `audience:${caller.clientId}:${offerId}`;
  const codec = cursorsOf(ctx);
  let after = '';
  // The first page counts the whole audience; later pages carry that count and read on from their cursor only.
  let counted: number | undefined;
  if (query.cursor) {
    const payload = codec.decode(name, query.cursor) as { after?: unknown; total?: unknown } | null;
    if (typeof payload?.after !== 'string' || typeof payload.total !== 'number') {
      throw validationError([{ field: 'cursor', message: 'is not a cursor of this list' }]);
    }
    after = payload.after;
    counted = payload.total;
  }
  const items: TAudienceMember[] = [];
  let total = 0;
  let hasMore = false;
  let cursorAt = '';
  for await (const batch of qualifyingBatches(ctx, caller.clientId, offer.body, after)) {
    for (const { row, qualification } of batch) {
      total += 1;
      if (row.user_id <= after) continue;
      if (items.length < query.limit) {
        items.push({
          userId: row.user_id,
          externalUserId: row.external_user_id,
          apr: qualification.apr as number,
          creditLimit: qualification.creditLimit,
          fileAsOf: new Date(row.as_of).toISOString(),
        });
        cursorAt = row.user_id;
      } else hasMore = true;
    }
    if (counted !== undefined && hasMore) break;
  }
  const count = counted ?? total;
  // A read of each listed customer's credit data, named on the trail with the offer.
  await Promise.all(
    items.map((member) =>
      recordAudit(ctx, {
        type: 'credit_data.read',
        clientId: caller.clientId,
        userId: member.userId,
        subject: { operationId: 'listOfferAudience', offerId },
      }),
    ),
  );
  return {
    items,
    pagination: { hasMore, nextCursor: hasMore ? codec.encode(name, { after: cursorAt, total: count }) : null, total: count },
  };
};

// ----- The profile the audience and results read -----

/**
 * Saves what the rules read from a newly committed file on record, in the commit's transaction, and moves the customer
 * between the program's score bands.
 */
export const saveOfferProfile = async (
  tx: Queryable,
  ctx: AppContext,
  user: { id: string; client_id: string; address_enc?: string | null },
  file: CreditFile,
  asOf: Date,
) => {
  const score = file.monthlyScores.at(-1)?.score;
  if (score === undefined) return;
  const facts = offerFactsOf(file, asOf, score, await enrolledAddressState(ctx, tx, user), (id) => accountIdOf(user.id, id));
  await upsertProfile(tx, { userId: user.id, clientId: user.client_id, facts, asOf });
};

/**
 * Files on record committed before offer profiles existed get one, a batch per housekeeping sweep, so every customer
 * with a file reaches audiences and the score bands without waiting for their next pull.
 */
export const backfillOfferProfiles = async (ctx: AppContext, batch = 200): Promise<number> => {
  let saved = 0;
  // On from where the last sweep stopped, so users whose file gives no profile never hold the others back.
  const users = await listUsersWithoutProfile(ctx.db, ctx.services.offerBackfillAfter, batch);
  ctx.services.offerBackfillAfter = users.length < batch ? '' : (users.at(-1)?.id ?? '');
  for (const user of users) {
    try {
      const record = await loadFileOnRecord(ctx, user.id);
      const score = record?.file.monthlyScores.at(-1)?.score;
      if (!record || score === undefined) continue;
      await ctx.db.transaction(async (tx) => {
        if (await lockProfile(tx, user.id)) return;
        await saveOfferProfile(tx, ctx, user, record.file, record.asOf);
        await noteCustomerScore(tx, user.client_id, user.id, score);
        saved += 1;
      });
    } catch (error) {
      ctx.logger.warn({ err: error, userId: user.id }, 'offer profile backfill skipped a user');
    }
  }
  return saved;
};

/** Removes a purged user's offer profile, impressions and looks, and takes them out of the score bands. */
export const eraseOfferData = async (tx: Queryable, userId: string): Promise<void> => {
  await deleteProfile(tx, userId);
  await forgetCustomerScore(tx, userId);
};

/** The sandbox landing page's offer: by the click that opened it when known, else any offer of that id. */
export const findLandingOffer = async (ctx: AppContext, offerId: string, clickId: string | undefined) => {
  const click = clickId ? await findClickAnyClient(ctx.db, clickId) : undefined;
  if (click && click.offer_id === offerId) {
    return (await catalogueOf(ctx, click.client_id)).find((o) => o.offerId === offerId);
  }
  return findOfferAnyClient(ctx.db, offerId);
};
