import { type TEventEnvelope, ZEventEnvelope } from '@credit/contract';
import { verifyWebhook, type WebhookHeaders } from './verify-webhook.ts';

/** The signature was valid but the body is not an event this SDK knows (a newer event type, say). */
export class WebhookEventError extends Error {
  override name = 'WebhookEventError';
  constructor(
    message: string,
    readonly issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ) {
    super(message);
  }
}

export interface ConstructEventOptions {
  /** Largest accepted age of the signature, in seconds. Default 300 (the API's tolerance). */
  toleranceSec?: number;
  /** Now, for tests. */
  now?: Date;
}

/**
 * Verifies a delivery's `X-Service-Signature` over the raw body (given the request's headers instead, that one or the
 * Standard Webhooks headers, as `verifyWebhook`), then reads the body as the contract's event
 * envelope. The result is a union narrowed by `type`: after `if (event.type === 'score.changed')`,
 * `event.data.direction` is typed. Throws `WebhookVerificationError` for a bad signature and
 * `WebhookEventError` for a body that is not a known event.
 */
export const constructEvent = (
  rawBody: string | Uint8Array,
  signatureHeader: string | WebhookHeaders | null | undefined,
  secret: string,
  { toleranceSec = 300, now }: ConstructEventOptions = {},
): TEventEnvelope => {
  const body = verifyWebhook<unknown>(rawBody, signatureHeader, secret, { toleranceSec, now });
  const parsed = ZEventEnvelope.safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(({ path, message }) => ({ path, message }));
    throw new WebhookEventError('The delivery is signed but is not a known event', issues);
  }
  return body as TEventEnvelope;
};
