import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/webhooks.ts';

const SECRET = 'whsec_sdk_0123456789abcdef';
const body = JSON.stringify({ id: 'evt_abc12345', type: 'user.enrolled', createdAt: '2026-01-15T10:00:00.000Z', data: {} });
const t = 1_768_471_200;
const now = new Date(t * 1000);
const sign = (secret: string, ts = t, payload = body) => createHmac('sha256', secret).update(`${ts}.${payload}`).digest('hex');

describe('verifyWebhook', () => {
  it('accepts a valid signature and returns the parsed event', () => {
    const event = verifyWebhook<{ id: string }>(body, `t=${t},v1=${sign(SECRET)}`, SECRET, { toleranceSec: 300, now });
    expect(event.id).toBe('evt_abc12345');
    expect(verifyWebhook(Buffer.from(body), `t=${t},v1=${sign(SECRET)}`, SECRET, { toleranceSec: 300, now })).toEqual(
      JSON.parse(body),
    );
  });

  it('accepts any matching v1 (rotation), in either position', () => {
    const header = `t=${t},v1=${sign('the-new-secret-0123')},v1=${sign(SECRET)}`;
    expect(() => verifyWebhook(body, header, SECRET, { toleranceSec: 300, now })).not.toThrow();
    expect(() => verifyWebhook(body, header, 'the-new-secret-0123', { toleranceSec: 300, now })).not.toThrow();
  });

  it('rejects a wrong secret, a changed body, a missing or malformed header', () => {
    const header = `t=${t},v1=${sign(SECRET)}`;
    const reject = (raw: string, h: string | undefined, secret = SECRET) =>
      expect(() => verifyWebhook(raw, h, secret, { toleranceSec: 300, now })).toThrow(WebhookVerificationError);
    reject(body, header, 'another-secret-0123456');
    reject(`${body} `, header);
    reject(body, undefined);
    reject(body, `v1=${sign(SECRET)}`);
    reject(body, `t=${t}`);
    reject(body, `t=${t},v1=${sign(SECRET).slice(0, 63)}`);
    reject(body, `t=${t},v0=${sign(SECRET)}`);
    reject(body, `t=${t + 1},v1=${sign(SECRET)}`);
  });

  it('rejects a timestamp outside the tolerance, in the past or the future', () => {
    const header = `t=${t},v1=${sign(SECRET)}`;
    const at = (seconds: number) => ({ toleranceSec: 300, now: new Date((t + seconds) * 1000) });
    expect(() => verifyWebhook(body, header, SECRET, at(300))).not.toThrow();
    expect(() => verifyWebhook(body, header, SECRET, at(-300))).not.toThrow();
    expect(() => verifyWebhook(body, header, SECRET, at(301))).toThrow(/tolerance/);
    expect(() => verifyWebhook(body, header, SECRET, at(-301))).toThrow(/tolerance/);
  });
});
