import { getEvent, listEvents } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as events from './service.ts';

export const eventRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listEvents, async ({ query, caller }) => {
      const page = await events.listEvents(ctx, caller, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, getEvent, async ({ params, caller }) => ({
      data: await events.getEvent(ctx, caller, params.eventId),
    })),
  ],
});
