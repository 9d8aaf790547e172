import { ApiError } from '../core/api-error.ts';

/**
 * The failures any bureau provider raises, so that the platform's callers and jobs need no adapter's code.
 *
 * Why a bureau call gave no usable file. Every reason answers `503 SERVICE_UNAVAILABLE` (the caller may retry
 * later; nothing was stored); the reason is logged and lets a job decide to retry the refresh later.
 * - `circuit_open`: recent calls failed in a row; calls fail fast until the breaker lets a test call through.
 * - `timeout`, `network`, `bureau_error`: the last attempt after the retries timed out, could not connect, or got a 5xx/429.
 * - `rejected`: the bureau refused the request itself (401/403/4xx): a configuration problem, not retried.
 * - `invalid_answer`: the answer was not a complete file under the contract (malformed or partial JSON).
 * - `busy`: no slot under `BUREAU_MAX_PER_SECOND` came free within `BUREAU_TIMEOUT_MS` although the caller's client was
 *   within its share (every process together is at the cap). A client over its share gets BureauRateLimitedError (429).
 */
export type BureauFailureReason =
  | 'circuit_open'
  | 'timeout'
  | 'network'
  | 'bureau_error'
  | 'rejected'
  | 'invalid_answer'
  | 'busy';

const MESSAGES: Record<BureauFailureReason, string> = {
  circuit_open: 'The credit bureau is failing; calls to it are paused for a short while. Try again later.',
  timeout: 'The credit bureau did not answer in time. Try again later.',
  network: 'The credit bureau could not be reached. Try again later.',
  bureau_error: 'The credit bureau answered with an error. Try again later.',
  rejected: 'The credit bureau refused the request. Try again later.',
  invalid_answer: 'The credit bureau’s answer could not be used. Try again later.',
  busy: 'The credit bureau’s request limit is reached. Try again later.',
};

/**
 * A bureau call that produced no file. An ApiError, so any path that reaches the bureau (a credit read,
 * verification, a refresh) answers 503 rather than 500 without mapping it; `reason` tells jobs why.
 * Its message never carries anything from the subject or the bureau's answer.
 */
export class BureauUnavailableError extends ApiError {
  constructor(
    readonly reason: BureauFailureReason,
    retryAfterSeconds?: number,
  ) {
    super('SERVICE_UNAVAILABLE', MESSAGES[reason], undefined, undefined, retryAfterSeconds ? { retryAfterSeconds } : undefined);
    this.name = 'BureauUnavailableError';
  }
}

/**
 * What a caller over its share sees: `429 RATE_LIMIT_EXCEEDED` with `Retry-After`, so a partner flooding the bureau is
 * told to slow down while `503` keeps meaning the bureau itself is failing.
 */
export class BureauRateLimitedError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      'RATE_LIMIT_EXCEEDED',
      `This client’s share of the credit bureau’s request rate is in use; retry after ${retryAfterSeconds} s.`,
      undefined,
      { retryAfter: retryAfterSeconds },
    );
    this.name = 'BureauRateLimitedError';
  }
}
