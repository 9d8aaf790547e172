import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constructEvent, WebhookEventError, WebhookVerificationError } from '../src/webhooks.ts';

const SECRET = 'whsec_sdk_0123456789abcdef';
const t = 1_768_471_200;
const now = new Date(t * 1000);
const signed = (payload: unknown) => {
  const body = JSON.stringify(payload);
  return { body, header: `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.${body}`).digest('hex')}` };
};
const scoreChanged = {
  id: 'evt_7Yu9iO1pA3sD5fG7',
  type: 'score.changed',
  createdAt: '2026-01-15T10:00:00.000Z',
  data: {
    userId: 'usr_8fQ2kZ1mW4xL9pR3',
    externalUserId: 'cust-1',
    score: 720,
    previousScore: 700,
    change: 20,
    scoreDate: '2026-01-15',
    direction: 'up',
  },
};

describe('constructEvent', () => {
  it('verifies the signature and returns the event, typed by its type', () => {
    const { body, header } = signed(scoreChanged);
    const event = constructEvent(body, header, SECRET, { now });
    if (event.type !== 'score.changed') throw new Error(`unexpected ${event.type}`);
    expect(event.data.direction).toBe('up');
  });

  it('refuses a bad signature before reading the body', () => {
    const { body } = signed(scoreChanged);
    expect(() => constructEvent(body, `t=${t},v1=${'0'.repeat(64)}`, SECRET, { now })).toThrow(WebhookVerificationError);
  });

  it('refuses a signed body that is not a known event', () => {
    const { body, header } = signed({ ...scoreChanged, type: 'score.vanished' });
    expect(() => constructEvent(body, header, SECRET, { now })).toThrow(WebhookEventError);
  });
});
