import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constructEvent, signWebhookPayload, verifyWebhook, WebhookVerificationError } from '../src/webhooks.ts';

const STANDARD = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const CHOSEN = 'my-own-secret-0123456789';
const payload = JSON.stringify({
  id: 'evt_abc1234567890',
  type: 'user.deleted',
  createdAt: '2026-01-15T10:00:00.000Z',
  data: { userId: 'usr_abc1234567890', externalUserId: 'cust-1', deletedAt: '2026-01-15T10:00:00.000Z' },
});
const t = 1_768_471_200;
const now = new Date(t * 1000);
const sign = (secret: string | string[]) => signWebhookPayload({ payload, secret, eventId: 'evt_abc1234567890', timestamp: t });
const hmac = (key: Buffer | string, text: string, encoding: 'hex' | 'base64') =>
  createHmac('sha256', key).update(text).digest(encoding);

describe('signWebhookPayload', () => {
  it('signs as a delivery: X-Service-Signature with the UTF-8 key, webhook-signature with the decoded one then UTF-8', () => {
    const headers = sign(STANDARD);
    expect(headers['x-service-signature']).toBe(`t=${t},v1=${hmac(STANDARD, `${t}.${payload}`, 'hex')}`);
    const content = `evt_abc1234567890.${t}.${payload}`;
    expect(headers['webhook-signature']).toBe(
      `v1,${hmac(Buffer.alloc(32, 7), content, 'base64')} v1,${hmac(STANDARD, content, 'base64')}`,
    );
    expect(headers).toMatchObject({
      'webhook-id': 'evt_abc1234567890',
      'webhook-timestamp': String(t),
      'content-type': 'application/json',
    });
    expect(headers['x-service-event-id']).toBe('evt_abc1234567890');
    expect(headers['user-agent']).toMatch(/^CreditPlatform-Webhooks\//);
  });

  it('signs a chosen secret, a short whsec_ one and a not-base64 one with their UTF-8 bytes only', () => {
    for (const secret of [
      CHOSEN,
      `whsec_${Buffer.alloc(16).toString('base64')}`,
      'whsec_not_base64_0123456789',
      `whsec_${Buffer.alloc(65).toString('base64')}`,
    ]) {
      expect(sign(secret)['webhook-signature'], secret).toBe(`v1,${hmac(secret, `evt_abc1234567890.${t}.${payload}`, 'base64')}`);
    }
    expect(sign(`whsec_${Buffer.alloc(24).toString('base64')}`)['webhook-signature'].split(' ')).toHaveLength(2);
    expect(sign(`whsec_${Buffer.alloc(64).toString('base64')}`)['webhook-signature'].split(' ')).toHaveLength(2);
  });

  it('signs once per secret during a rotation, newest first', () => {
    const headers = sign([STANDARD, CHOSEN]);
    expect(headers['x-service-signature'].split(',')).toHaveLength(3);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(3);
    for (const secret of [STANDARD, CHOSEN]) {
      expect(() => verifyWebhook(payload, headers, secret, { toleranceSec: 300, now })).not.toThrow();
    }
  });

  it('refuses an empty secret and a timestamp that is not whole seconds', () => {
    expect(() => sign('')).toThrow(TypeError);
    expect(() => signWebhookPayload({ payload, secret: CHOSEN, eventId: 'evt_x', timestamp: 1.5 })).toThrow(TypeError);
  });
});

describe('the SDK verifier, given the headers', () => {
  it('accepts X-Service-Signature, or the Standard Webhooks headers alone, with either kind of secret', () => {
    for (const secret of [STANDARD, CHOSEN]) {
      const headers = sign(secret);
      expect(constructEvent(payload, headers, secret, { now }).id).toBe('evt_abc1234567890');
      expect(constructEvent(payload, new Headers(headers), secret, { now }).id).toBe('evt_abc1234567890');
      const { 'x-service-signature': _, ...standardOnly } = headers;
      expect(constructEvent(payload, standardOnly, secret, { now }).type).toBe('user.deleted');
      // Only the decoded-key signature left: still the subscription's secret.
      const [first] = standardOnly['webhook-signature'].split(' ');
      expect(() =>
        verifyWebhook(payload, { ...standardOnly, 'webhook-signature': first as string }, secret, { toleranceSec: 300, now }),
      ).not.toThrow();
    }
  });

  it('refuses another secret, another body, an old timestamp and missing headers, saying which', () => {
    const { 'x-service-signature': _, ...standardOnly } = sign(STANDARD);
    const refusal = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookVerificationError);
        return (error as WebhookVerificationError).reason;
      }
      throw new Error('accepted');
    };
    expect(refusal(() => verifyWebhook(payload, standardOnly, CHOSEN, { toleranceSec: 300, now }))).toBe('signature_mismatch');
    expect(refusal(() => verifyWebhook(`${payload} `, standardOnly, STANDARD, { toleranceSec: 300, now }))).toBe(
      'signature_mismatch',
    );
    expect(
      refusal(() => verifyWebhook(payload, { ...standardOnly, 'webhook-id': 'evt_other' }, STANDARD, { toleranceSec: 300, now })),
    ).toBe('signature_mismatch');
    expect(
      refusal(() => verifyWebhook(payload, standardOnly, STANDARD, { toleranceSec: 300, now: new Date((t + 301) * 1000) })),
    ).toBe('timestamp_outside_tolerance');
    const { 'webhook-timestamp': __, ...noTimestamp } = standardOnly;
    expect(refusal(() => verifyWebhook(payload, noTimestamp, STANDARD, { toleranceSec: 300, now }))).toBe('missing_header');
    expect(refusal(() => verifyWebhook(payload, {}, STANDARD, { toleranceSec: 300, now }))).toBe('missing_header');
  });
});
