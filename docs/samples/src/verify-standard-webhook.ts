import { Webhook } from 'standardwebhooks';

/**
 * Verifies a delivery with the Standard Webhooks library instead of `@credit/sdk/webhooks`: `rawBody` is the exact
 * bytes received, `headers` the request's headers. The key is your secret's UTF-8 bytes (`format: 'raw'`), the same
 * key as `X-Service-Signature`. Throws `WebhookVerificationError` when the signature or the timestamp does not hold.
 */
export function verifyStandardWebhook(
  rawBody: string,
  headers: Record<string, string>,
  secret: string,
): { id: string; type: string } {
  const verifier = new Webhook(new TextEncoder().encode(secret), { format: 'raw' });
  return verifier.verify(rawBody, headers) as { id: string; type: string };
}
