/**
 * `@credit/sdk/webhooks`: the receiving end of webhook deliveries (Node: it uses `node:crypto`).
 */
export type { TEventEnvelope, TEventEnvelopeOf, TEventType } from '@credit/contract';
export { type ConstructEventOptions, constructEvent, WebhookEventError } from './construct-event.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.ts';
