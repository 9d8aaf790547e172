import { createHmac } from 'node:crypto';

/** The `user-agent` of every delivery, so a receiver (or its firewall) sees a forwarded test delivery as a real one. */
export const WEBHOOK_USER_AGENT = 'CreditPlatform-Webhooks/1.0 (+https://credit.example/docs#webhooks)';

/** `whsec_` and base64 whose bytes may key Standard Webhooks' HMAC (its libraries take 24 to 64 of them). */
const STANDARD_SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * The key bytes a secret signs `webhook-signature` with: the base64-decoded bytes of a Standard Webhooks secret
 * (`whsec_` + base64 of 24–64 bytes, what `new Webhook(secret)` of the `standardwebhooks` package decodes), then, for
 * every secret, its UTF-8 bytes (what receivers keyed with the string as given verify, `{ format: 'raw' }`).
 */
export const standardSignatureKeys = (secret: string): Buffer[] => {
  const utf8 = Buffer.from(secret, 'utf8');
  const base64 = STANDARD_SECRET.exec(secret)?.[1];
  if (base64 === undefined) return [utf8];
  const decoded = Buffer.from(base64, 'base64');
  return decoded.length >= 24 && decoded.length <= 64 ? [decoded, utf8] : [utf8];
};

const hmac = (key: Buffer, text: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', key).update(text, 'utf8').digest(encoding);

export interface SignWebhookPayloadOptions {
  /** The exact body bytes as text (the JSON of the event envelope), as they will be sent. */
  payload: string;
  /** The subscription's signing secret; several during a rotation (newest first): one signature each. */
  secret: string | readonly string[];
  /** The event's `id` (`evt_…`): `webhook-id` and `X-Service-Event-Id`, and part of what `webhook-signature` signs. */
  eventId: string;
  /** Unix time in seconds the signature is made at. Default: now. */
  timestamp?: number;
}

/** The headers a delivery carries, lowercase, as the API sends them. */
export interface SignedWebhookHeaders {
  'content-type': 'application/json';
  'user-agent': string;
  'x-service-event-id': string;
  'x-service-signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  [header: string]: string;
}

/**
 * Signs `payload` exactly as the API signs a delivery and answers every header it sends: `X-Service-Signature:
 * t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<payload>">` keyed with each secret's UTF-8 bytes, and the Standard Webhooks
 * headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<t>.<payload>">`,
 * keyed with the decoded bytes of a `whsec_` secret and then with its UTF-8 bytes, space separated). For your tests:
 * post these headers and `payload` to your receiver and it must accept them, as Stripe's `generateTestHeaderString`.
 * `npx credit listen` signs what it forwards with it.
 */
export const signWebhookPayload = ({
  payload,
  secret,
  eventId,
  timestamp = Math.floor(Date.now() / 1000),
}: SignWebhookPayloadOptions): SignedWebhookHeaders => {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => s.length === 0)) throw new TypeError('signWebhookPayload needs a secret');
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new TypeError('timestamp must be whole Unix seconds');
  const serviceSignatures = secrets.map((s) => `v1=${hmac(Buffer.from(s, 'utf8'), `${timestamp}.${payload}`, 'hex')}`);
  const standardSignatures = secrets.flatMap((s) =>
    standardSignatureKeys(s).map((key) => `v1,${hmac(key, `${eventId}.${timestamp}.${payload}`, 'base64')}`),
  );
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-service-event-id': eventId,
    'x-service-signature': [`t=${timestamp}`, ...serviceSignatures].join(','),
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignatures.join(' '),
  };
};
