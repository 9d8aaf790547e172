import { refreshCreditScore } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { refreshNow } from './service.ts';

export const monitoringRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, refreshCreditScore, async ({ ctx, params, caller }) => ({
      data: await refreshNow(ctx, caller, params.userId),
    })),
  ],
});
