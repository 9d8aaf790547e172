import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay } from '../src/retry.ts';

const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, initialDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 };
const NOW = Date.parse('2026-01-15T10:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delta-seconds and HTTP dates, never negative', () => {
    expect(parseRetryAfter('7', NOW)).toBe(7_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('Thu, 15 Jan 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Thu, 15 Jan 2026 09:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores an absent or unreadable header', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  it('doubles per retry up to the cap, with half of each step jittered', () => {
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 4].map((retry) => backoffDelay(retry, policy, () => 0.999999))).toEqual([100, 200, 400, 800, 1_000]);
  });
});

describe('retryDelay', () => {
  const half = () => 0.5;
  it('retries 429 and 503 after their Retry-After, or after backoff without one', () => {
    expect(retryDelay({ kind: 'response', status: 429, retryAfterMs: 2_000 }, 0, policy, half)).toBe(2_000);
    expect(retryDelay({ kind: 'response', status: 503, retryAfterMs: undefined }, 1, policy, half)).toBe(150);
  });

  it('does not wait for a Retry-After beyond the cap', () => {
    expect(retryDelay({ kind: 'response', status: 429, retryAfterMs: 60_000 }, 0, policy, half)).toBeUndefined();
  });

  it('never retries other statuses', () => {
    for (const status of [400, 401, 403, 404, 409, 500, 502]) {
      expect(retryDelay({ kind: 'response', status, retryAfterMs: 1 }, 0, policy, half)).toBeUndefined();
    }
  });

  it('retries a network error only when the request is safe to repeat', () => {
    expect(retryDelay({ kind: 'network-error', safeToRetry: true }, 0, policy, half)).toBe(75);
    expect(retryDelay({ kind: 'network-error', safeToRetry: false }, 0, policy, half)).toBeUndefined();
  });

  it('stops after maxRetries', () => {
    expect(retryDelay({ kind: 'response', status: 503, retryAfterMs: 0 }, 2, policy, half)).toBe(0);
    expect(retryDelay({ kind: 'response', status: 503, retryAfterMs: 0 }, 3, policy, half)).toBeUndefined();
  });
});
