import { Webhook } from 'standardwebhooks';

/**
 * Verifies a delivery with the Standard Webhooks library instead of `@credit/sdk/webhooks`: `rawBody` is the exact
 * bytes received, `headers` the request's headers, `secret` the `whsec_…` secret `createWebhook` generated (or one
 * you chose in that form), taken with the library's defaults. Throws `WebhookVerificationError` when the signature or
 * the timestamp does not hold.
 */
export function verifyStandardWebhook(
  rawBody: string,
  headers: Record<string, string>,
  secret: string,
): { id: string; type: string } {
  return new Webhook(secret).verify(rawBody, headers) as { id: string; type: string };
}
