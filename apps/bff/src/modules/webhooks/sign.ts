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

const STANDARD_SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The key Standard Webhooks libraries take from a `whsec_` secret by default: its base64 part, decoded, when that is
 * 24–64 bytes (a generated secret is 32); undefined for any other secret. The SDK's `listen` applies the same rule.
 */
export const standardSecretKey = (secret: string): Buffer | undefined => {
  const base64 = STANDARD_SECRET.exec(secret)?.[1];
  if (base64 === undefined) return undefined;
  const key = Buffer.from(base64, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : undefined;
};

const standardSignature = (key: Buffer, content: string) =>
  `v1,${createHmac('sha256', key).update(content, 'utf8').digest('base64')}`;

/**
 * Standard Webhooks' `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<t>.<body>">`, space separated, for each
 * live secret newest first. A secret in Standard Webhooks form signs twice, keyed with its decoded base64 part (what
 * `new Webhook(secret)` verifies) and with its UTF-8 bytes (what `format: 'raw'` verifies, as for any other secret),
 * so both ways of constructing a verifier accept the same delivery.
 */
export const standardSignatureHeader = (secrets: string[], eventId: string, timestamp: number, body: string): string => {
  const content = `${eventId}.${timestamp}.${body}`;
  return secrets
    .flatMap((secret) => {
      const raw = standardSignature(Buffer.from(secret, 'utf8'), content);
      const key = standardSecretKey(secret);
      return key ? [standardSignature(key, content), raw] : [raw];
    })
    .join(' ');
};
