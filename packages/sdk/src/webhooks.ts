/**
 * `@credit/sdk/webhooks`: the receiving end of webhook deliveries (Node: it uses `node:crypto`), and the signing of
 * test deliveries exactly as the API signs real ones.
 */
export type { TEventEnvelope, TEventEnvelopeOf, TEventType } from '@credit/contract';
export { type ConstructEventOptions, constructEvent, WebhookEventError } from './construct-event.ts';
export {
  type SignedWebhookHeaders,
  type SignWebhookPayloadOptions,
  signWebhookPayload,
  WEBHOOK_USER_AGENT,
} from './sign-webhook.ts';
export {
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.ts';
