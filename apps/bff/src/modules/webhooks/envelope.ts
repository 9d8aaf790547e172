import type { TEventType } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { eventEnvelope } from '../../outbox/outbox.ts';
import { type AttemptOutcome, type Deliverer, USER_AGENT } from './deliver.ts';
import type { WebhookRow } from './repo.ts';
import { type SigningWebhook, signingSecrets } from './secrets.ts';
import { signatureHeader, standardSignatureHeader } from './sign.ts';

export interface EventToSend {
  id: string;
  type: TEventType;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** The body bytes; built from the stored event each time, so `id` is stable across retries. */
export const envelopeBody = (event: EventToSend): string => JSON.stringify(eventEnvelope(event));

/**
 * One signed POST of one event to one subscription: sign the exact bytes sent, at the moment they are sent.
 * `secrets` lets a caller sending a batch open each subscription's secrets once instead of once per delivery.
 */
export const sendSigned = (
  ctx: AppContext,
  deliverer: Deliverer,
  webhook: SigningWebhook & Pick<WebhookRow, 'url'>,
  event: EventToSend,
  secrets?: string[],
): Promise<AttemptOutcome> => {
  const body = envelopeBody(event);
  const now = ctx.clock.now();
  const timestamp = Math.floor(now.getTime() / 1000);
  const keys = secrets ?? signingSecrets(ctx, webhook, now);
  return deliverer.post(webhook.url, body, {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-event-id': event.id,
    'x-service-signature': signatureHeader(keys, timestamp, body),
    // Standard Webhooks (standardwebhooks.com): the same event id and moment, so its libraries verify our deliveries.
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatureHeader(keys, event.id, timestamp, body),
  });
};
