import { defineOperation } from '../operation.ts';
import {
  RECOVER_MAX_DAYS,
  ZCreatedWebhook,
  ZCreateWebhookInput,
  ZDeliveryLogEntry,
  ZDeliveryParams,
  ZListDeliveriesQuery,
  ZListWebhooksQuery,
  ZRecoverWebhookInput,
  ZRotateWebhookSecretInput,
  ZTestWebhookInput,
  ZUpdateWebhookInput,
  ZWebhook,
  ZWebhookIdParams,
  ZWebhookRecovery,
  ZWebhookSecretRotation,
} from '../resources/webhooks.ts';

export const createWebhook = defineOperation({
  operationId: 'createWebhook',
  method: 'post',
  path: '/v1/webhooks',
  tag: 'Webhooks',
  summary: 'Subscribe to events',
  description:
    'Deliveries are `POST`s of an event envelope to `url` (HTTPS; in the sandbox also `http://` to a loopback receiver such as `http://localhost:4242`), signed with the secret: header ' +
    '`X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (keyed with the secret’s UTF-8 bytes), and the Standard Webhooks headers ' +
    '`webhook-id` (the event id), `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. ' +
    'Send no `secret` to get a generated one (`whsec_` + base64 of 32 random bytes), answered once in this response’s `secret`: ' +
    '`new Webhook(secret)` from the `standardwebhooks` package verifies with its defaults. A secret you choose is never returned, ' +
    "and is the key as its UTF-8 bytes (Standard Webhooks libraries: `format: 'raw'`). Answer 2xx within 30 s; " +
    'failures are retried after 1 min, 5 min, 30 min, 2 h and 24 h (`retrySchedule: fast` in the sandbox: 5 s to 30 s), then the subscription becomes `failed`.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { body: ZCreateWebhookInput },
  success: {
    status: 201,
    description: 'The new subscription, `active`; with `secret` when it was generated.',
    data: ZCreatedWebhook,
  },
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
    'Send at least one of `url`, `events`, `secret` (rotation to a secret you choose), `status` (`active` or `disabled`) ' +
    'and `retrySchedule`. ' +
    'Setting `active` on a `failed` subscription re-activates it, resets its failure count and sends the deliveries ' +
    'that waited on a fresh schedule; deliveries that had failed for good come back with `POST /v1/webhooks/{webhookId}/recover`.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams, body: ZUpdateWebhookInput },
  success: { status: 200, description: 'The updated subscription.', data: ZWebhook },
  errors: ['NOT_FOUND'],
});

export const rotateWebhookSecret = defineOperation({
  operationId: 'rotateWebhookSecret',
  method: 'post',
  path: '/v1/webhooks/{webhookId}/rotate-secret',
  tag: 'Webhooks',
  summary: 'Rotate the signing secret',
  description:
    'Svix’s *rotate secret*: with no body (or `{}`) the new secret is generated (`whsec_` + base64 of 32 random bytes) and ' +
    'answered once in `secret`; with `{"secret": …}` it is yours and not returned. For the next 24 h ' +
    '(`previousSecretExpiresAt`) every delivery carries signatures made with both the new and the previous secret, so ' +
    'a receiver with either verifies it; afterwards only the new one signs. A second rotation within those 24 h ' +
    'drops the oldest secret at once.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZWebhookIdParams, body: ZRotateWebhookSecretInput },
  success: {
    status: 200,
    description: 'The rotation: the generated secret, and until when the previous one signs.',
    data: ZWebhookSecretRotation,
  },
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
    '(`connection refused`, `timeout after 30 s`, `tls: self-signed certificate`, `http 500`, …); `nextAttemptAt` says ' +
    'when the delivery is tried again.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  request: { params: ZWebhookIdParams, query: ZListDeliveriesQuery },
  success: { status: 200, description: 'A page of delivery attempts.', data: ZDeliveryLogEntry, list: true },
  errors: ['NOT_FOUND'],
});

export const retryWebhookDelivery = defineOperation({
  operationId: 'retryWebhookDelivery',
  method: 'post',
  path: '/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
  tag: 'Webhooks',
  summary: 'Resend one delivery now',
  description:
    'Makes one real, signed attempt of the delivery’s event now, whatever the delivery’s state (waiting for a retry, ' +
    'failed for good, or delivered) and the subscription’s status, and answers with its log entry. Its `attempt` ' +
    'continues the delivery’s numbering. A success ends the delivery; a failure changes neither its retry schedule ' +
    'nor the subscription’s failure count. `deliveryId` is in the logs; `404` when the event is no longer kept ' +
    `(${RECOVER_MAX_DAYS} days) or the delivery was a test.`,
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZDeliveryParams },
  success: { status: 200, description: 'The log entry of the attempt.', data: ZDeliveryLogEntry },
  errors: ['NOT_FOUND'],
});

export const recoverWebhook = defineOperation({
  operationId: 'recoverWebhook',
  method: 'post',
  path: '/v1/webhooks/{webhookId}/recover',
  tag: 'Webhooks',
  summary: 'Re-send every event missed since an instant',
  description:
    'Queues, once each, every event whose `createdAt` (the envelope’s, as `GET /v1/events` lists it) is in ' +
    `[\`since\`, \`until\`) (at most ${RECOVER_MAX_DAYS} days back; without \`until\`, from \`since\` on, so events a ` +
    'sandbox test clock dated ahead of now are included) and of the types it subscribes to now, that this subscription ' +
    'did not receive: deliveries that failed for good (their last retry failed), and events never sent to it because it ' +
    'was `failed` or `disabled` (from its creation on), on a fresh retry schedule. A type it no longer subscribes to is ' +
    'left as it was. ' +
    'It never changes the subscription’s status: on an `active` subscription they go out at once; on a `failed` or ' +
    '`disabled` one they wait until you re-activate it (`PATCH {"status":"active"}`). After an outage: re-activate, ' +
    'then recover since the outage began. A second call queues nothing already waiting.',
  auth: { kind: 'bearer', scope: 'webhooks' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZWebhookIdParams, body: ZRecoverWebhookInput },
  success: { status: 202, description: 'How many deliveries were queued.', data: ZWebhookRecovery },
  errors: ['NOT_FOUND'],
});
