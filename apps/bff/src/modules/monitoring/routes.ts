import { refreshCreditScore } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import { refreshNow } from './service.ts';

export const monitoringRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, refreshCreditScore, async ({ params, caller }) => ({
    data: await refreshNow(ctx, caller, params.userId),
  }));
  return router;
};
