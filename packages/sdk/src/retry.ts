/** How the client waits between attempts; every field has a default (see `DEFAULT_RETRY_POLICY`). */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** First backoff delay; each retry doubles it. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is thrown with its `retryAfter`. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent or
 * unreadable; never negative.
 */
export const parseRetryAfter = (header: string | null | undefined, nowMs: number): number | undefined => {
  if (!header) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date always names its day and month; Date.parse alone would read '-5' as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
};

/**
 * Exponential backoff with "equal jitter": half the delay is fixed, half random, so clients that failed
 * together do not retry together, and no retry comes sooner than half its step. `retry` counts from 0.
 */
export const backoffDelay = (retry: number, policy: RetryPolicy, random: () => number): number => {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(step / 2 + (step / 2) * random());
};

export type AttemptOutcome =
  | { kind: 'response'; status: number; retryAfterMs: number | undefined }
  | { kind: 'network-error'; safeToRetry: boolean };

/**
 * Whether and how long to wait before attempt `retry + 1`, or undefined to stop. 429 and 503 mean the
 * request was not carried out, so any method may retry them; a network error may have lost a response to
 * a request that did run, so only a read or a call carrying an `Idempotency-Key` is retried.
 */
export const retryDelay = (
  outcome: AttemptOutcome,
  retry: number,
  policy: RetryPolicy,
  random: () => number,
): number | undefined => {
  if (retry >= policy.maxRetries) return undefined;
  if (outcome.kind === 'network-error') return outcome.safeToRetry ? backoffDelay(retry, policy, random) : undefined;
  if (outcome.status !== 429 && outcome.status !== 503) return undefined;
  if (outcome.retryAfterMs === undefined) return backoffDelay(retry, policy, random);
  return outcome.retryAfterMs <= policy.maxRetryAfterMs ? outcome.retryAfterMs : undefined;
};

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
