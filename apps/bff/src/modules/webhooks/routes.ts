import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhookDeliveries,
  listWebhooks,
  recoverWebhook,
  retryWebhookDelivery,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as webhooks from './service.ts';

export const webhookRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, createWebhook, async ({ ctx, body, caller }) => ({ data: await webhooks.createWebhook(ctx, caller, body) })),
    bindRoute(ctx, listWebhooks, async ({ ctx, query, caller }) => {
      const page = await webhooks.listWebhooks(ctx, caller, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, getWebhook, async ({ ctx, params, caller }) => ({
      data: await webhooks.getWebhook(ctx, caller, params.webhookId),
    })),
    bindRoute(ctx, updateWebhook, async ({ ctx, params, body, caller }) => ({
      data: await webhooks.changeWebhook(ctx, caller, params.webhookId, body),
    })),
    bindRoute(ctx, rotateWebhookSecret, async ({ ctx, params, body, caller }) => ({
      data: await webhooks.rotateWebhookSecret(ctx, caller, params.webhookId, body),
    })),
    bindRoute(ctx, deleteWebhook, async ({ ctx, params, caller }) => {
      await webhooks.deleteWebhook(ctx, caller, params.webhookId);
      return { noContent: true };
    }),
    bindRoute(ctx, testWebhook, async ({ ctx, params, body, caller }) => ({
      data: await webhooks.testWebhook(ctx, caller, params.webhookId, body.eventType),
    })),
    bindRoute(ctx, listWebhookDeliveries, async ({ ctx, params, query, caller }) => {
      const page = await webhooks.listDeliveries(ctx, caller, params.webhookId, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, retryWebhookDelivery, async ({ ctx, params, caller }) => ({
      data: await webhooks.retryDelivery(ctx, caller, params.webhookId, params.deliveryId),
    })),
    bindRoute(ctx, recoverWebhook, async ({ ctx, params, body, caller }) => ({
      data: await webhooks.recoverWebhook(ctx, caller, params.webhookId, body),
    })),
  ],
});
