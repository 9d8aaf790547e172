import { getCreditScore, listCreditScoreHistory } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import * as credit from './service.ts';

export const creditRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, getCreditScore, async ({ params, caller }) => ({
    data: await credit.getCreditScore(ctx, caller, params.userId),
  }));
  bindRoute(router, ctx, listCreditScoreHistory, async ({ params, query, caller }) => {
    const page = await credit.listScoreHistory(ctx, caller, params.userId, query);
    return { data: page.items, pagination: page.pagination };
  });
  return router;
};
