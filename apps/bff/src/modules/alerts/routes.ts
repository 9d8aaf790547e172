import { listAlerts, updateAlert } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as alerts from './service.ts';

export const alertRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listAlerts, async ({ ctx, params, query, caller }) => {
      const page = await alerts.listAlerts(ctx, caller, params.userId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, updateAlert, async ({ ctx, params, body, caller }) => ({
      data: await alerts.updateAlert(ctx, caller, params.userId, params.alertId, body),
    })),
  ],
});
