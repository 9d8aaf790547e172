import { createHmac } from 'node:crypto';

/** Lowercase hex HMAC-SHA256 of `<t>.<body>`, keyed with the secret's UTF-8 bytes exactly as the partner gave it. */
export const signatureOf = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${body}`, 'utf8').digest('hex');

/**
 * `X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>]`. During a rotation's grace period one `v1` per
 * live secret (newest first), so a receiver still holding the old secret keeps accepting deliveries.
 */
export const signatureHeader = (secrets: string[], timestamp: number, body: string): string =>
  [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signatureOf(secret, timestamp, body)}`)].join(',');

/**
 * Standard Webhooks' `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">`, one per live secret, space
 * separated. Keyed with the same UTF-8 bytes as `X-Service-Signature`, so one secret verifies both header sets.
 */
export const standardSignatureHeader = (secrets: string[], eventId: string, timestamp: number, body: string): string =>
  secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${eventId}.${timestamp}.${body}`, 'utf8').digest('base64')}`,
    )
    .join(' ');
