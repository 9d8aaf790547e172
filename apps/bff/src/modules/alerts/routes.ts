import { listAlerts, updateAlert } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import * as alerts from './service.ts';

export const alertRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, listAlerts, async ({ params, query, caller }) => {
    const page = await alerts.listAlerts(ctx, caller, params.userId, query);
    return { data: page.items, pagination: page.pagination };
  });
  bindRoute(router, ctx, updateAlert, async ({ params, body, caller }) => ({
    data: await alerts.updateAlert(ctx, caller, params.userId, params.alertId, body),
  }));
  return router;
};
