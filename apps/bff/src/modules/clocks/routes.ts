import {
  advanceSandboxClock,
  attachSandboxClockUsers,
  createSandboxClock,
  deleteSandboxClock,
  getSandboxClock,
  listSandboxClocks,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as clocks from './service.ts';

/** `/v1/sandbox/clocks`: sandbox test clocks (admin scope; bindRoute answers 404 in production). */
export const clockRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, createSandboxClock, async ({ ctx, body, caller }) => ({ data: await clocks.createClock(ctx, caller, body) })),
    bindRoute(ctx, listSandboxClocks, async ({ ctx, query, caller }) => {
      const page = await clocks.listClocks(ctx, caller, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, getSandboxClock, async ({ ctx, params, caller }) => ({
      data: await clocks.getClock(ctx, caller, params.clockId),
    })),
    bindRoute(ctx, attachSandboxClockUsers, async ({ ctx, params, body, caller }) => ({
      data: await clocks.attachClockUsers(ctx, caller, params.clockId, body),
    })),
    bindRoute(ctx, advanceSandboxClock, async ({ ctx, params, body, caller }) => ({
      data: await clocks.advanceClock(ctx, caller, params.clockId, body),
    })),
    bindRoute(ctx, deleteSandboxClock, async ({ ctx, params, caller }) => {
      await clocks.deleteClock(ctx, caller, params.clockId);
      return { noContent: true };
    }),
  ],
});
