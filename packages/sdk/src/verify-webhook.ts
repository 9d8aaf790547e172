import { createHmac, timingSafeEqual } from 'node:crypto';
import { standardSignatureKeys } from './sign-webhook.ts';

export interface VerifyWebhookOptions {
  /** Largest accepted distance between `t` and now, in seconds (the spec says 300). */
  toleranceSec: number;
  /** Now, for tests; defaults to the system clock. */
  now?: Date;
}

/** What was wrong, for code that branches on it (the message says the same to a person, with what to do). */
export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_outside_tolerance'
  | 'signature_mismatch';

export class WebhookVerificationError extends Error {
  constructor(
    message: string,
    readonly reason: WebhookVerificationReason = 'malformed_header',
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;
const HEADER = 'X-Service-Signature';

/** Says what is wrong with one `v1=` value: its length or its characters (never repeats more than a few of them). */
const describeBadSignature = (value: string): string => {
  const shown = value.length > 12 ? `${value.slice(0, 12)}…` : value;
  if (value.length === 0) return `${HEADER} has an empty v1= signature`;
  if (!/^[0-9a-fA-F]*$/.test(value)) {
    return `${HEADER}'s v1= signature "${shown}" is not hexadecimal: expected 64 lowercase hex characters (HMAC-SHA256)`;
  }
  if (value.length !== 64) {
    return `${HEADER}'s v1= signature "${shown}" has ${value.length} hex characters; an HMAC-SHA256 signature has 64`;
  }
  return `${HEADER}'s v1= signature "${shown}" must be lowercase hex`;
};

const mismatch = (header: string) =>
  `No v1 signature in ${header} matches this body with this secret. Check that you verify the raw request body ` +
  '(the exact bytes, before any JSON parsing) with the signing secret of this subscription (the `secret` you gave ' +
  'createWebhook, not your API client secret). Lost it? Set a new one with PATCH /v1/webhooks/{webhookId} ' +
  '{"secret": "…"}: deliveries are signed with both for 24 hours, so switch your receiver within that time.';

/** A request's headers: a Fetch `Headers`, or Node's `req.headers` (names in lowercase). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const headerOf = (headers: WebhookHeaders, name: string): string | undefined => {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const STANDARD_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

const assertWithinTolerance = (timestamp: number, toleranceSec: number, now: Date) => {
  const age = Math.floor(now.getTime() / 1000) - timestamp;
  if (Math.abs(age) <= toleranceSec) return;
  throw new WebhookVerificationError(
    age > 0
      ? `Signature timestamp t=${timestamp} is ${age} s old, outside the tolerance of ${toleranceSec} s: a replayed or ` +
          "long-delayed delivery, or this server's clock is wrong"
      : `Signature timestamp t=${timestamp} is ${-age} s in the future, outside the tolerance of ${toleranceSec} s: ` +
          "this server's clock is probably behind",
    'timestamp_outside_tolerance',
  );
};

/**
 * Standard Webhooks' headers: `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`
 * (space separated), keyed with the decoded bytes of a `whsec_` secret or with the secret's UTF-8 bytes: the API
 * signs with both, and any one matching is enough.
 */
const verifyStandardSignature = (
  body: Buffer,
  headers: WebhookHeaders,
  secret: string,
  toleranceSec: number,
  now: Date,
): void => {
  const [id, timestampText, signatureList] = STANDARD_HEADERS.map((name) => headerOf(headers, name));
  if (!id || !timestampText || !signatureList) {
    throw new WebhookVerificationError(
      `Missing ${HEADER} header, and the Standard Webhooks headers are incomplete (${STANDARD_HEADERS.join(', ')}): ` +
        "pass the request's headers as they arrived",
      'missing_header',
    );
  }
  if (!/^\d{1,12}$/.test(timestampText)) {
    throw new WebhookVerificationError(`webhook-timestamp "${timestampText.slice(0, 12)}" is not a Unix time in whole seconds`);
  }
  const timestamp = Number(timestampText);
  const signatures = signatureList
    .split(' ')
    .filter((part) => part.startsWith('v1,') && BASE64_SHA256.test(part.slice(3)))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  if (signatures.length === 0) {
    throw new WebhookVerificationError('webhook-signature has no v1,<base64> signature (expected "v1,<base64 HMAC-SHA256>")');
  }
  assertWithinTolerance(timestamp, toleranceSec, now);
  const expected = standardSignatureKeys(secret).map((key) =>
    createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest(),
  );
  // Every pair is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of signatures) for (const digest of expected) matched = timingSafeEqual(candidate, digest) || matched;
  if (!matched) throw new WebhookVerificationError(mismatch('webhook-signature'), 'signature_mismatch');
};

/**
 * Checks `X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` against the raw body exactly as received
 * (parse the JSON only after this passes). Any `v1` may match: during a secret rotation deliveries carry
 * one per live secret. The comparison is constant-time; a `t` further than `toleranceSec` from now is
 * refused, so a captured delivery cannot be replayed later. Returns the parsed event. A refusal is a
 * `WebhookVerificationError` whose message says what is wrong and what to do, and whose `reason` says the same
 * for code.
 *
 * Given the request's headers instead of one header's value (`req.headers`, or a Fetch `Headers`), it checks
 * `X-Service-Signature` when there is one, else the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the same tolerance.
 */
export const verifyWebhook = <T = unknown>(
  rawBody: string | Uint8Array,
  headerOrHeaders: string | WebhookHeaders | null | undefined,
  secret: string,
  { toleranceSec, now = new Date() }: VerifyWebhookOptions,
): T => {
  const headers = typeof headerOrHeaders === 'object' && headerOrHeaders !== null ? headerOrHeaders : undefined;
  const header = headers ? headerOf(headers, 'x-service-signature') : (headerOrHeaders as string | null | undefined);
  if (headers && !header) {
    const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
    verifyStandardSignature(body, headers, secret, toleranceSec, now);
    return JSON.parse(body.toString('utf8')) as T;
  }
  if (!header) {
    throw new WebhookVerificationError(
      `Missing ${HEADER} header: pass the request's x-service-signature header as it arrived`,
      'missing_header',
    );
  }
  let timestamp: number | undefined;
  let badTimestamp: string | undefined;
  const signatures: Buffer[] = [];
  const badSignatures: string[] = [];
  const keys: string[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    const key = (index < 0 ? part : part.slice(0, index)).trim();
    const value = index < 0 ? '' : part.slice(index + 1).trim();
    keys.push(key);
    if (key === 't') {
      if (/^\d{1,12}$/.test(value)) timestamp = Number(value);
      else badTimestamp = value;
    } else if (key === 'v1') {
      if (HEX_SHA256.test(value)) signatures.push(Buffer.from(value, 'hex'));
      else badSignatures.push(value);
    }
  }
  if (timestamp === undefined) {
    const shown = badTimestamp && badTimestamp.length > 12 ? `${badTimestamp.slice(0, 12)}…` : badTimestamp;
    throw new WebhookVerificationError(
      badTimestamp === undefined
        ? `${HEADER} has no t= timestamp (expected "t=<unix seconds>,v1=<hex>")`
        : `${HEADER}'s t= timestamp "${shown}" is not a Unix time in whole seconds`,
    );
  }
  if (signatures.length === 0) {
    const first = badSignatures[0];
    throw new WebhookVerificationError(
      first === undefined
        ? `${HEADER} has no v1= signature (it has ${keys.filter(Boolean).join(', ') || 'nothing'}; expected "t=<unix seconds>,v1=<hex>")`
        : describeBadSignature(first),
    );
  }
  assertWithinTolerance(timestamp, toleranceSec, now);
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody);
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`, 'utf8').update(body).digest();
  // Every candidate is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const candidate of signatures) matched = timingSafeEqual(candidate, expected) || matched;
  if (!matched) throw new WebhookVerificationError(mismatch(HEADER), 'signature_mismatch');
  return JSON.parse(body.toString('utf8')) as T;
};
