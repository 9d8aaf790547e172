import type {
  TCreateWebhookInput,
  TDeliveryLogEntry,
  TEventType,
  TListDeliveriesQuery,
  TListWebhooksQuery,
  TUpdateWebhookInput,
  TWebhook,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import { cursorsOf } from '../../http/cursor.ts';
import { recordAudit } from '../audit/service.ts';
import { assertWebhookUrl } from './assert-webhook-url.ts';
import { Deliverer } from './deliver.ts';
import { sendSigned } from './envelope.ts';
import { insertAttempt, listAttempts, toLogEntry } from './log-repo.ts';
import { insertTestDelivery, restartPendingDeliveries } from './queue-repo.ts';
import {
  deleteWebhookRow,
  findWebhook,
  insertWebhook,
  listClientWebhooks,
  toWebhook,
  updateWebhook,
  type WebhookChanges,
} from './repo.ts';
import { sampleEventData } from './sample-events.ts';
import { openCurrentSecret, ROTATION_GRACE_MS, sealPreviousSecret, sealSecret } from './secrets.ts';

export const createWebhook = async (ctx: AppContext, caller: Caller, input: TCreateWebhookInput): Promise<TWebhook> => {
  await assertWebhookUrl(input.url, ctx.config);
  const id = ctx.ids.id('wh');
  const row = await insertWebhook(ctx.db, {
    id,
    clientId: caller.clientId,
    url: input.url,
    events: input.events,
    secretEnc: sealSecret(ctx, id, input.secret),
    createdAt: ctx.clock.now(),
  });
  return toWebhook(row);
};

const requireWebhook = async (ctx: AppContext, caller: Caller, webhookId: string) => {
  const row = await findWebhook(ctx.db, caller.clientId, webhookId);
  if (!row) throw notFound('Webhook');
  return row;
};

export const getWebhook = async (ctx: AppContext, caller: Caller, webhookId: string): Promise<TWebhook> =>
  toWebhook(await requireWebhook(ctx, caller, webhookId));

export const listWebhooks = async (ctx: AppContext, caller: Caller, query: TListWebhooksQuery) => {
  const page = await listClientWebhooks(ctx.db, caller.clientId, query, cursorsOf(ctx));
  return { items: page.items.map(toWebhook), pagination: page.pagination };
};

/**
 * url/events/status/secret in one transaction. A new secret keeps the old one signing beside it for
 * 24 h, so receivers can switch without rejecting a delivery; re-activating a `failed` subscription
 * resets its failure count and gives its waiting deliveries a fresh schedule.
 */
export const changeWebhook = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  input: TUpdateWebhookInput,
): Promise<TWebhook> => {
  if (input.url) await assertWebhookUrl(input.url, ctx.config);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const current = await findWebhook(tx, caller.clientId, webhookId, true);
    if (!current) return undefined;
    const changes: WebhookChanges = { updatedAt: now, url: input.url, events: input.events, status: input.status };
    if (input.secret !== undefined) {
      changes.secretEnc = sealSecret(ctx, webhookId, input.secret);
      changes.previousSecretEnc = sealPreviousSecret(ctx, webhookId, openCurrentSecret(ctx, current));
      changes.previousSecretExpiresAt = new Date(now.getTime() + ROTATION_GRACE_MS);
      await recordAudit(ctx, { type: 'webhook.secret_rotated', clientId: caller.clientId, subject: { webhookId } }, tx);
    }
    if (input.status === 'active' && current.status !== 'active') {
      changes.failureCount = 0;
      await restartPendingDeliveries(tx, webhookId, now);
    }
    return updateWebhook(tx, webhookId, changes);
  });
  if (!row) throw notFound('Webhook');
  return toWebhook(row);
};

export const deleteWebhook = async (ctx: AppContext, caller: Caller, webhookId: string): Promise<void> => {
  if (!(await deleteWebhookRow(ctx.db, caller.clientId, webhookId))) throw notFound('Webhook');
};

// One keep-alive agent per context (its CA file and timeout), made on the first test delivery.
const testDeliverers = new WeakMap<AppContext, Deliverer>();

/** One real, signed attempt of a sample event, now, whatever the subscription's status; never retried. */
export const testWebhook = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  eventType: TEventType,
): Promise<TDeliveryLogEntry> => {
  const webhook = await requireWebhook(ctx, caller, webhookId);
  const createdAt = ctx.clock.now();
  const event = { id: ctx.ids.id('evt'), type: eventType, createdAt, data: sampleEventData(eventType, createdAt, ctx.ids) };
  let deliverer = testDeliverers.get(ctx);
  if (!deliverer) {
    deliverer = new Deliverer(ctx.config);
    testDeliverers.set(ctx, deliverer);
  }
  const outcome = await sendSigned(ctx, deliverer, webhook, event);
  const record = {
    deliveryId: ctx.ids.id('del'),
    webhookId,
    eventId: event.id,
    eventType,
    attempt: 1,
    status: outcome.ok ? ('success' as const) : ('failed' as const),
    statusCode: outcome.statusCode,
    responseTimeMs: outcome.responseTimeMs,
    deliveredAt: ctx.clock.now(),
    error: outcome.error,
  };
  await ctx.db.transaction(async (tx) => {
    await insertTestDelivery(tx, {
      id: record.deliveryId,
      webhookId,
      clientId: caller.clientId,
      eventId: event.id,
      eventType,
      at: createdAt,
    });
    await insertAttempt(tx, record);
  });
  return toLogEntry(record);
};

export const listDeliveries = async (ctx: AppContext, caller: Caller, webhookId: string, query: TListDeliveriesQuery) => {
  await requireWebhook(ctx, caller, webhookId);
  return listAttempts(ctx.db, webhookId, query, cursorsOf(ctx));
};
