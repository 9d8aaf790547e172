import {
  instantOf,
  RECOVER_MAX_DAYS,
  type TCreatedWebhook,
  type TCreateWebhookInput,
  type TDeliveryLogEntry,
  type TEventType,
  type TListDeliveriesQuery,
  type TListWebhooksQuery,
  type TRecoverWebhookInput,
  type TRetrySchedule,
  type TRotateWebhookSecretInput,
  type TUpdateWebhookInput,
  type TWebhook,
  type TWebhookRecovery,
  type TWebhookSecretRotation,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { withDeadlockRetry } from '../../db/deadlock-retry.ts';
import { recordAudit } from '../audit/service.ts';
import { assertWebhookUrl } from './assert-webhook-url.ts';
import { Deliverer } from './deliver.ts';
import { sendSigned } from './envelope.ts';
import { insertAttempt, listAttempts, toLogEntry } from './log-repo.ts';
import { findDeliveryToResend, insertTestDelivery, recordResend, requeueSince, restartPendingDeliveries } from './queue-repo.ts';
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
import { generateSecret, rotationChanges, sealSecret } from './secrets.ts';

/** `fast` retries exist to rehearse an outage: a production subscription keeps the standard schedule. */
const assertRetrySchedule = (ctx: AppContext, schedule: TRetrySchedule | undefined) => {
  if (schedule === 'fast' && ctx.config.APP_ENV !== 'sandbox') {
    throw validationError([
      {
        field: 'retrySchedule',
        message: 'fast is for rehearsing an outage in the sandbox; production retries on the standard schedule',
      },
    ]);
  }
};

/** Without a `secret` one is generated and answered this once: the only moment it leaves the service. */
export const createWebhook = async (ctx: AppContext, caller: Caller, input: TCreateWebhookInput): Promise<TCreatedWebhook> => {
  assertRetrySchedule(ctx, input.retrySchedule);
  await assertWebhookUrl(input.url, ctx.config);
  const id = ctx.ids.id('wh');
  const generated = input.secret === undefined ? generateSecret() : undefined;
  const row = await insertWebhook(ctx.db, {
    id,
    clientId: caller.clientId,
    url: input.url,
    events: input.events,
    secretEnc: sealSecret(ctx, id, input.secret ?? (generated as string)),
    retrySchedule: input.retrySchedule ?? 'standard',
    createdAt: ctx.clock.now(),
  });
  return generated ? { ...toWebhook(row), secret: generated } : toWebhook(row);
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
 * url/events/status/secret/retrySchedule in one transaction. A new secret keeps the old one signing beside it for
 * 24 h, so receivers can switch without rejecting a delivery; re-activating a `failed` subscription
 * resets its failure count and gives its waiting deliveries a fresh schedule.
 */
export const changeWebhook = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  input: TUpdateWebhookInput,
): Promise<TWebhook> => {
  assertRetrySchedule(ctx, input.retrySchedule);
  if (input.url) await assertWebhookUrl(input.url, ctx.config);
  const now = ctx.clock.now();
  const row = await ctx.db.transaction(async (tx) => {
    const current = await findWebhook(tx, caller.clientId, webhookId, true);
    if (!current) return undefined;
    const changes: WebhookChanges = {
      updatedAt: now,
      url: input.url,
      events: input.events,
      status: input.status,
      retrySchedule: input.retrySchedule,
    };
    if (input.secret !== undefined) {
      Object.assign(changes, rotationChanges(ctx, current, input.secret, now));
      await recordAudit(ctx, { type: 'webhook.secret_rotated', clientId: caller.clientId, subject: { webhookId } }, tx);
    }
    if (input.status === 'active' && current.status !== 'active') {
      changes.failureCount = 0;
      changes.disabledAt = null;
      changes.disabledReason = null;
      await restartPendingDeliveries(tx, webhookId, now);
    }
    if (input.status === 'disabled' && current.status !== 'disabled') {
      changes.disabledAt = now;
      changes.disabledReason = 'disabled by you';
    }
    return updateWebhook(tx, webhookId, changes);
  });
  if (!row) throw notFound('Webhook');
  return toWebhook(row);
};

/**
 * Svix's "rotate secret": the given secret, or a generated one answered this once; the current one keeps signing
 * beside it for 24 h (a second rotation meanwhile drops the oldest at once, as a PATCH of `secret` does).
 */
export const rotateWebhookSecret = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  input: TRotateWebhookSecretInput,
): Promise<TWebhookSecretRotation> => {
  const generated = input.secret === undefined ? generateSecret() : undefined;
  const secret = input.secret ?? (generated as string);
  const now = ctx.clock.now();
  const rotation = await ctx.db.transaction(async (tx) => {
    const current = await findWebhook(tx, caller.clientId, webhookId, true);
    if (!current) return undefined;
    const changes = rotationChanges(ctx, current, secret, now);
    await updateWebhook(tx, webhookId, { ...changes, updatedAt: now });
    await recordAudit(ctx, { type: 'webhook.secret_rotated', clientId: caller.clientId, subject: { webhookId } }, tx);
    return changes;
  });
  if (!rotation) throw notFound('Webhook');
  return {
    webhookId,
    ...(generated ? { secret: generated } : {}),
    previousSecretExpiresAt: rotation.previousSecretExpiresAt.toISOString(),
  };
};

/**
 * The row, then (by cascade) its deliveries and attempts: the order the fan-out and the settler lock them in, so a
 * delete with deliveries in flight waits for them instead of deadlocking; a deadlock that slips through is run again.
 */
export const deleteWebhook = async (ctx: AppContext, caller: Caller, webhookId: string): Promise<void> => {
  const deleted = await withDeadlockRetry(ctx.db, (tx) => deleteWebhookRow(tx, caller.clientId, webhookId));
  if (!deleted) throw notFound('Webhook');
};

// One keep-alive agent per app (its CA file and timeout), made on the first delivery asked for through the API.
const onDemandDeliverer = (ctx: AppContext): Deliverer => {
  ctx.services.webhookDeliverer ??= new Deliverer(ctx.config);
  return ctx.services.webhookDeliverer;
};

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
  const outcome = await sendSigned(ctx, onDemandDeliverer(ctx), webhook, event);
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

/**
 * Svix's "resend": one real attempt of a logged delivery's event now, whatever the delivery's state and the
 * subscription's status. Recorded as the delivery's next attempt; it neither moves the retry schedule nor counts as
 * one of the subscription's failures, so trying does not make matters worse.
 */
export const retryDelivery = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  deliveryId: string,
): Promise<TDeliveryLogEntry> => {
  const webhook = await requireWebhook(ctx, caller, webhookId);
  const delivery = await findDeliveryToResend(ctx.db, webhookId, deliveryId);
  if (!delivery) throw notFound('Delivery');
  const outcome = await sendSigned(ctx, onDemandDeliverer(ctx), webhook, delivery.event);
  const record = {
    deliveryId,
    webhookId,
    eventId: delivery.event.id,
    eventType: delivery.event.type,
    status: outcome.ok ? ('success' as const) : ('failed' as const),
    statusCode: outcome.statusCode,
    responseTimeMs: outcome.responseTimeMs,
    deliveredAt: ctx.clock.now(),
    error: outcome.error,
  };
  const logged = await withDeadlockRetry(ctx.db, async (tx) => {
    const resent = await recordResend(tx, deliveryId, outcome.ok);
    if (!resent) return undefined;
    await insertAttempt(tx, { ...record, attempt: resent.attempt });
    return { ...record, ...resent };
  });
  if (!logged) throw notFound('Delivery');
  return toLogEntry(logged);
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * `since`/`until` as instants: `since` within the last RECOVER_MAX_DAYS days and not ahead, `until` after it. No
 * `until` means no upper bound, so an event recorded in the same instant as the call is included.
 */
const recoveryWindow = (input: TRecoverWebhookInput, now: Date): { since: Date; until: Date | null } => {
  const since = instantOf(input.since);
  if (!since) throw validationError([{ field: 'since', message: 'must be a real date-time in the years 1900–9999' }]);
  if (since.getTime() > now.getTime()) throw validationError([{ field: 'since', message: 'must not be in the future' }]);
  if (since.getTime() < now.getTime() - RECOVER_MAX_DAYS * DAY_MS) {
    throw validationError([{ field: 'since', message: `must be at most ${RECOVER_MAX_DAYS} days ago` }]);
  }
  if (input.until === undefined) return { since, until: null };
  const until = instantOf(input.until);
  if (!until) throw validationError([{ field: 'until', message: 'must be a real date-time in the years 1900–9999' }]);
  if (until.getTime() <= since.getTime()) throw validationError([{ field: 'until', message: 'must be after since' }]);
  return { since, until };
};

/**
 * Svix's "recover": queue again what this subscription missed in a window, once each. It never changes the status:
 * on a subscription that is not `active` the deliveries wait (no due time) until re-activation gives them one.
 */
export const recoverWebhook = async (
  ctx: AppContext,
  caller: Caller,
  webhookId: string,
  input: TRecoverWebhookInput,
): Promise<TWebhookRecovery> => {
  const now = ctx.clock.now();
  const window = recoveryWindow(input, now);
  return withDeadlockRetry(ctx.db, async (tx) => {
    // Locked, so a re-activation at the same moment either sees these deliveries or happens before they are queued.
    const webhook = await findWebhook(tx, caller.clientId, webhookId, true);
    if (!webhook) throw notFound('Webhook');
    const queued = await requeueSince(
      tx,
      ctx.ids,
      { id: webhook.id, clientId: webhook.client_id, events: webhook.events, createdAt: new Date(webhook.created_at) },
      window,
      webhook.status === 'active' ? now : null,
      now,
    );
    return {
      webhookId,
      queued,
      since: window.since.toISOString(),
      // Without an `until` the window has no end (it takes events a test clock dated ahead too): none to answer.
      ...(window.until ? { until: window.until.toISOString() } : {}),
      status: webhook.status,
    };
  });
};
