import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `t` and now, in seconds (the spec says 300). */
  toleranceSec: number;
  /** Now, for tests; defaults to the system clock. */
  now?: Date;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Checks `X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` against the raw body exactly as received
 * (parse the JSON only after this passes). Any `v1` may match: during a secret rotation deliveries carry
 * one per live secret. The comparison is constant-time; a `t` further than `toleranceSec` from now is
 * refused, so a captured delivery cannot be replayed later. Returns the parsed event.
 */
export const verifyWebhook = <T = unknown>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  { toleranceSec, now = new Date() }: VerifyWebhookOptions,
): T => {
  if (!header) throw new WebhookVerificationError('Missing X-Service-Signature header');
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && HEX_SHA256.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined) throw new WebhookVerificationError('Signature header has no valid t=');
  if (signatures.length === 0) throw new WebhookVerificationError('Signature header has no v1= signature');
  if (Math.abs(Math.floor(now.getTime() / 1000) - timestamp) > toleranceSec) {
    throw new WebhookVerificationError('Signature timestamp is outside the tolerance');
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(body).digest();
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of signatures) matched = timingSafeEqual(candidate, expected) || matched;
  if (!matched) throw new WebhookVerificationError('No v1 signature matches this secret and body');
  return JSON.parse(body.toString('utf8')) as T;
};
