export { type BureauFailureReason, BureauRateLimitedError, BureauUnavailableError } from '../errors.ts';

/** One failed attempt worth retrying and counting towards the breaker: a 5xx/429/408, a connection failure. */
export class BureauFault extends Error {
  constructor(
    readonly reason: 'network' | 'bureau_error',
    readonly status?: number,
  ) {
    super(status ? `bureau answered ${status}` : 'bureau unreachable');
    this.name = 'BureauFault';
  }
}

/** The bureau answered, but not with a file: not retried (the same request gets the same answer). */
export class BureauAnswerError extends Error {
  constructor(
    readonly reason: 'rejected' | 'invalid_answer',
    /** What was wrong, without values: status codes, field paths and zod issue codes only. */
    readonly facts: Record<string, unknown>,
  ) {
    super(`bureau answer unusable (${reason})`);
    this.name = 'BureauAnswerError';
  }
}

/** No slot under the shared cap came free in time. */
export class BureauBusyError extends Error {
  constructor() {
    super('no bureau slot free before the deadline');
    this.name = 'BureauBusyError';
  }
}

/** The caller's client used its share of the cap for every second until the deadline (not the bureau's fault). */
export class BureauShareExceededError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the client’s share of bureau slots stayed used up until the deadline');
    this.name = 'BureauShareExceededError';
  }
}
