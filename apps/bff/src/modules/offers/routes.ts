import { listOffers, listUserOffers, recordOfferClick } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as offers from './service.ts';

export const offerRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listOffers, async ({ query }) => {
      const page = await offers.listCatalogue(ctx, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, listUserOffers, async ({ params, query, caller }) => {
      const page = await offers.listUserOffers(ctx, caller, params.userId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, recordOfferClick, async ({ params, body, caller }) => ({
      data: await offers.recordOfferClick(ctx, caller, params.userId, params.offerId, body),
    })),
  ],
});
