import { constructEvent } from '@credit/sdk/webhooks';

/**
 * Your webhook endpoint's body: verify the signature over the raw bytes (before any JSON parsing), then act on the
 * event, narrowed by its type. Answer 2xx quickly; we retry anything else.
 */
export function handleCreditWebhook(rawBody: string, signatureHeader: string | undefined, secret: string): string {
  const event = constructEvent(rawBody, signatureHeader, secret);
  switch (event.type) {
    case 'score.changed':
      return `score of ${event.data.externalUserId} went ${event.data.direction} to ${event.data.score}`;
    case 'alert.created':
      return `alert for ${event.data.externalUserId}: ${event.data.alert.title}`;
    default:
      return `ignored ${event.type}`;
  }
}
