import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  testWebhook,
  updateWebhook,
} from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import * as webhooks from './service.ts';

export const webhookRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, createWebhook, async ({ body, caller }) => ({ data: await webhooks.createWebhook(ctx, caller, body) }));
  bindRoute(router, ctx, listWebhooks, async ({ query, caller }) => {
    const page = await webhooks.listWebhooks(ctx, caller, query);
    return { data: page.items, pagination: page.pagination };
  });
  bindRoute(router, ctx, getWebhook, async ({ params, caller }) => ({
    data: await webhooks.getWebhook(ctx, caller, params.webhookId),
  }));
  bindRoute(router, ctx, updateWebhook, async ({ params, body, caller }) => ({
    data: await webhooks.changeWebhook(ctx, caller, params.webhookId, body),
  }));
  bindRoute(router, ctx, deleteWebhook, async ({ params, caller }) => {
    await webhooks.deleteWebhook(ctx, caller, params.webhookId);
    return { noContent: true };
  });
  bindRoute(router, ctx, testWebhook, async ({ params, body, caller }) => ({
    data: await webhooks.testWebhook(ctx, caller, params.webhookId, body.eventType),
  }));
  bindRoute(router, ctx, listWebhookDeliveries, async ({ params, query, caller }) => {
    const page = await webhooks.listDeliveries(ctx, caller, params.webhookId, query);
    return { data: page.items, pagination: page.pagination };
  });
  return router;
};
