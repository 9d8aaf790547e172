import {
  archiveOffer,
  createOffer,
  getOffer,
  getOfferClick,
  getOfferVersion,
  getProgramResults,
  listOfferAudience,
  listOffers,
  listUserOffers,
  pauseOffer,
  previewOfferAudience,
  recordOfferClick,
  recordOfferImpressions,
  recordOfferOutcome,
  resumeOffer,
  updateOffer,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as offers from './service.ts';

export const offerRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listOffers, async ({ ctx, query, caller }) => {
      const page = await offers.listCatalogue(ctx, caller, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, createOffer, async ({ ctx, body, caller }) => ({ data: await offers.createOffer(ctx, caller, body) })),
    bindRoute(ctx, getOffer, async ({ ctx, params, caller }) => ({
      data: await offers.getCatalogueOffer(ctx, caller, params.offerId),
    })),
    bindRoute(ctx, getOfferVersion, async ({ ctx, params, caller }) => ({
      data: await offers.getOfferVersion(ctx, caller, params.offerId, params.version),
    })),
    bindRoute(ctx, updateOffer, async ({ ctx, params, body, caller }) => ({
      data: await offers.updateOffer(ctx, caller, params.offerId, body),
    })),
    bindRoute(ctx, pauseOffer, async ({ ctx, params, caller }) => ({
      data: await offers.transitionOffer(ctx, caller, params.offerId, 'pause'),
    })),
    bindRoute(ctx, resumeOffer, async ({ ctx, params, caller }) => ({
      data: await offers.transitionOffer(ctx, caller, params.offerId, 'resume'),
    })),
    bindRoute(ctx, archiveOffer, async ({ ctx, params, caller }) => ({
      data: await offers.transitionOffer(ctx, caller, params.offerId, 'archive'),
    })),
    bindRoute(ctx, listOfferAudience, async ({ ctx, params, query, caller }) => {
      const page = await offers.listOfferAudience(ctx, caller, params.offerId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, previewOfferAudience, async ({ ctx, body, caller }) => ({
      data: await offers.previewOfferAudience(ctx, caller, body),
    })),
    bindRoute(ctx, getOfferClick, async ({ ctx, params, caller }) => ({
      data: await offers.getOfferClick(ctx, caller, params.clickId),
    })),
    bindRoute(ctx, recordOfferOutcome, async ({ ctx, params, body, caller }) => ({
      data: await offers.recordOfferOutcome(ctx, caller, params.clickId, body),
    })),
    bindRoute(ctx, getProgramResults, async ({ ctx, query, caller }) => ({
      data: await offers.getProgramResults(ctx, caller, query),
    })),
    bindRoute(ctx, listUserOffers, async ({ ctx, params, query, caller }) => {
      const page = await offers.listUserOffers(ctx, caller, params.userId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, recordOfferClick, async ({ ctx, params, body, caller }) => ({
      data: await offers.recordOfferClick(ctx, caller, params.userId, params.offerId, body),
    })),
    bindRoute(ctx, recordOfferImpressions, async ({ ctx, params, body, caller }) => ({
      data: await offers.recordOfferImpressions(ctx, caller, params.userId, body),
    })),
  ],
});
