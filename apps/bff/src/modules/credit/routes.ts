import { getCreditReport, getCreditScore, listCreditScoreHistory, simulateCreditScore } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as credit from './service.ts';

export const creditRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, getCreditScore, async ({ ctx, params, caller }) => ({
      data: await credit.getCreditScore(ctx, caller, params.userId),
    })),
    bindRoute(ctx, listCreditScoreHistory, async ({ ctx, params, query, caller }) => {
      const page = await credit.listScoreHistory(ctx, caller, params.userId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, getCreditReport, async ({ ctx, params, caller }) => ({
      data: await credit.getCreditReport(ctx, caller, params.userId),
    })),
    bindRoute(ctx, simulateCreditScore, async ({ ctx, params, body, caller }) => ({
      data: await credit.simulateCreditScore(ctx, caller, params.userId, body),
    })),
  ],
});
