import { defineOperation } from '../operation.ts';
import {
  ZCreateWebhookInput,
  ZDeliveryLogEntry,
  ZListDeliveriesQuery,
  ZListWebhooksQuery,
  ZTestWebhookInput,
  ZUpdateWebhookInput,
  ZWebhook,
  ZWebhookIdParams,
} from '../resources/webhooks.ts';

export const createWebhook = defineOperation({
  operationId: 'createWebhook',
  method: 'post',
  path: '/v1/webhooks',
  tag: 'Webhooks',
  summary: 'Subscribe to events',
  description:
    'Deliveries are `POST`s of an event envelope to `url` (HTTPS; in the sandbox also `http://` to a loopback receiver such as `http://localhost:4242`), signed with `secret`: header ' +
    '`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. Answer 2xx within 30 s; ' +
    'failures are retried after 1 min, 5 min, 30 min, 2 h and 24 h, then the subscription becomes `failed`. ' +
    'The secret is never returned.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { body: ZCreateWebhookInput },
  success: { status: 201, description: 'The new subscription, `active`.', data: ZWebhook },
  errors: ['IDEMPOTENCY_CONFLICT'],
});

export const listWebhooks = defineOperation({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/v1/webhooks',
  tag: 'Webhooks',
  summary: 'List webhook subscriptions',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { query: ZListWebhooksQuery },
  success: { status: 200, description: 'A page of subscriptions.', data: ZWebhook, list: true },
  errors: [],
});

export const getWebhook = defineOperation({
  operationId: 'getWebhook',
  method: 'get',
  path: '/v1/webhooks/{webhookId}',
  tag: 'Webhooks',
  summary: 'Get a webhook subscription',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams },
  success: { status: 200, description: 'The subscription.', data: ZWebhook },
  errors: ['NOT_FOUND'],
});

export const updateWebhook = defineOperation({
  operationId: 'updateWebhook',
  method: 'patch',
  path: '/v1/webhooks/{webhookId}',
  tag: 'Webhooks',
  summary: 'Change a webhook subscription',
  description:
    'Send at least one of `url`, `events`, `secret` (rotation) and `status` (`active` or `disabled`). ' +
    'Setting `active` on a `failed` subscription re-activates it and resets its failure count.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams, body: ZUpdateWebhookInput },
  success: { status: 200, description: 'The updated subscription.', data: ZWebhook },
  errors: ['NOT_FOUND'],
});

export const deleteWebhook = defineOperation({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/v1/webhooks/{webhookId}',
  tag: 'Webhooks',
  summary: 'Delete a webhook subscription',
  description: 'Stops all deliveries to it, pending retries included.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams },
  success: { status: 204, description: 'Deleted; no body.' },
  errors: ['NOT_FOUND'],
});

export const testWebhook = defineOperation({
  operationId: 'testWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhookId}/test',
  tag: 'Webhooks',
  summary: 'Send a test delivery now',
  description:
    'Makes one real, signed delivery of a sample event of `eventType` (any type, subscribed or not) and answers ' +
    'with its log entry. A failed test is not retried and does not count towards the subscription’s failures.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams, body: ZTestWebhookInput },
  success: { status: 200, description: 'The log entry of the attempt.', data: ZDeliveryLogEntry },
  errors: ['NOT_FOUND'],
});

export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/{webhookId}/logs',
  tag: 'Webhooks',
  summary: 'List delivery attempts',
  description:
    'One entry per attempt, retries included, newest first. Filter by `status`. A failed attempt says why in `error` ' +
    '(`connection refused`, `timeout after 30 s`, `tls: self-signed certificate`, `http 500`, …).',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams, query: ZListDeliveriesQuery },
  success: { status: 200, description: 'A page of delivery attempts.', data: ZDeliveryLogEntry, list: true },
  errors: ['NOT_FOUND'],
});
