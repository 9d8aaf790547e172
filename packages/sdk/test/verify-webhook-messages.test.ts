import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/webhooks.ts';

/** Issue 23: each refusal says what is actually wrong with the header, and what to do. */
const SECRET = 'whsec_messages_0123456789abcdef';
const body = JSON.stringify({ id: 'evt_abc12345', type: 'user.enrolled', createdAt: '2026-01-15T10:00:00.000Z', data: {} });
const t = 1_768_471_200;
const now = new Date(t * 1000);
const sign = (secret: string, ts = t) => createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');

const refusal = (header: string | undefined, secret = SECRET, at = now): WebhookVerificationError => {
  try {
    verifyWebhook(body, header, secret, { toleranceSec: 300, now: at });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('verified');
};

describe('verifyWebhook messages', () => {
  it('t=1,v1=abc: the v1 it has is 3 hex characters, not an HMAC-SHA256 (not "has no v1= signature")', () => {
    const error = refusal('t=1,v1=abc');
    expect(error.message).not.toMatch(/has no v1/);
    expect(error.message).toBe(
      'X-Service-Signature\'s v1= signature "abc" has 3 hex characters; an HMAC-SHA256 signature has 64',
    );
    expect(error.reason).toBe('malformed_header');
  });

  it('a v1 that is not hex says so, and shows only its start', () => {
    const error = refusal(`t=${t},v1=${'z'.repeat(64)}`);
    expect(error.message).toBe(
      'X-Service-Signature\'s v1= signature "zzzzzzzzzzzz…" is not hexadecimal: expected 64 lowercase hex characters (HMAC-SHA256)',
    );
  });

  it('a header without v1 names what it does have', () => {
    expect(refusal(`t=${t},v0=${sign(SECRET)}`).message).toBe(
      'X-Service-Signature has no v1= signature (it has t, v0; expected "t=<unix seconds>,v1=<hex>")',
    );
  });

  it('a missing or malformed t= says which', () => {
    expect(refusal(`v1=${sign(SECRET)}`).message).toMatch(/^X-Service-Signature has no t= timestamp/);
    expect(refusal(`t=2026-01-15,v1=${sign(SECRET)}`).message).toBe(
      'X-Service-Signature\'s t= timestamp "2026-01-15" is not a Unix time in whole seconds',
    );
    const missing = refusal(undefined);
    expect(missing.reason).toBe('missing_header');
    expect(missing.message).toMatch(/^Missing X-Service-Signature header/);
  });

  it('a well-formed but old signature says how old, and the tolerance', () => {
    const error = refusal(`t=1,v1=${sign(SECRET, 1)}`);
    expect(error.reason).toBe('timestamp_outside_tolerance');
    expect(error.message).toBe(
      `Signature timestamp t=1 is ${t - 1} s old, outside the tolerance of 300 s: a replayed or long-delayed delivery, or this server's clock is wrong`,
    );
    expect(refusal(`t=${t + 301},v1=${sign(SECRET, t + 301)}`).message).toMatch(/is 301 s in the future/);
  });

  it('a wrong secret hints at the subscription’s signing secret and how to rotate it', () => {
    const error = refusal(`t=${t},v1=${sign(SECRET)}`, 'sk_the_api_client_secret_by_mistake');
    expect(error.reason).toBe('signature_mismatch');
    expect(error.message).toMatch(/^No v1 signature in X-Service-Signature matches this body with this secret/);
    expect(error.message).toContain('the raw request body');
    expect(error.message).toContain('not your API client secret');
    expect(error.message).toContain('PATCH /v1/webhooks/{webhookId} {"secret": "…"}');
    expect(error.message).toContain('signed with both for 24 hours');
    // The secret itself is never in the message.
    expect(error.message).not.toContain('sk_the_api_client_secret_by_mistake');
  });
});
