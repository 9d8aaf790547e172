import { ExponentialBackoff, type IBackoff } from 'cockatiel';
import type { Clock } from '../../lib/clock.ts';

/*
 * Retry, circuit breaker and per-attempt timeout around bureau calls, every wait and every "how long since" on the
 * injected clock: cockatiel's own policies read the wall clock and start their own timers, which a test cannot move.
 * Only cockatiel's backoff schedule (decorrelated jitter, pure arithmetic) is reused.
 */

/** The circuit is open: the call was not made. */
export class CircuitOpenError extends Error {
  constructor() {
    super('bureau circuit open');
    this.name = 'CircuitOpenError';
  }
}

/** The attempt ran past its deadline and was aborted. */
export class AttemptTimeoutError extends Error {
  constructor() {
    super('bureau attempt timed out');
    this.name = 'AttemptTimeoutError';
  }
}

export interface RetryOptions {
  /** Attempts after the first. */
  retries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Which failures are worth another attempt. */
  retriable: (error: unknown) => boolean;
}

/** Runs `attempt` until it succeeds, fails with an error not worth retrying, or has been retried `retries` times. */
export const withRetries = async <T>(clock: Clock, options: RetryOptions, attempt: () => Promise<T>): Promise<T> => {
  const schedule = new ExponentialBackoff({ initialDelay: options.initialDelayMs, maxDelay: options.maxDelayMs });
  let backoff: IBackoff<unknown> | undefined;
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (retry >= options.retries || !options.retriable(error)) throw error;
    }
    backoff = backoff ? backoff.next(undefined) : schedule.next();
    await clock.sleep(backoff.duration);
  }
};

/** Ends an attempt's deadline timer once the attempt settled: one shared reason, not a DOMException per call. */
const SETTLED = Object.freeze(new Error('attempt settled'));

/**
 * Runs `work` with a signal that aborts once `timeoutMs` have passed on `clock`, and rejects with AttemptTimeoutError
 * then, whether or not `work` heeds the signal.
 */
export const withTimeout = async <T>(clock: Clock, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
  const attempt = new AbortController();
  const timer = new AbortController();
  const expired = clock.sleep(timeoutMs, timer.signal).then(() => {
    attempt.abort(new AttemptTimeoutError());
    throw new AttemptTimeoutError();
  });
  // The race's loser must not surface as an unhandled rejection.
  expired.catch(() => {});
  try {
    return await Promise.race([work(attempt.signal), expired]);
  } catch (error) {
    throw attempt.signal.aborted ? new AttemptTimeoutError() : error;
  } finally {
    timer.abort(SETTLED);
  }
};

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitBreakerOptions {
  /** Consecutive counted failures that open the circuit. */
  threshold: number;
  /** How long the circuit stays open before one trial call may go through. */
  halfOpenAfterMs: number;
  /** Which failures count against the bureau. */
  counts: (error: unknown) => boolean;
  onOpen?: () => void;
  onClose?: () => void;
}

/**
 * Opens after `threshold` consecutive counted failures; while open, calls fail with CircuitOpenError without running.
 * Once `halfOpenAfterMs` have passed on the clock, one call runs as the trial (calls arriving meanwhile wait for its
 * outcome): its success closes the circuit, its failure opens it again for another `halfOpenAfterMs`.
 */
export class CircuitBreaker {
  #state: CircuitState = 'closed';
  #failures = 0;
  #openedAt = 0;
  #trial: Promise<unknown> | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly options: CircuitBreakerOptions,
  ) {}

  get state(): CircuitState {
    return this.#state;
  }

  /** Whether a call now would fail with CircuitOpenError without running: callers check it before queueing for a slot. */
  get failsFast(): boolean {
    return this.#state === 'open' && this.clock.now().getTime() - this.#openedAt < this.options.halfOpenAfterMs;
  }

  async execute<T>(work: () => Promise<T>): Promise<T> {
    if (this.#state === 'half_open') {
      await this.#trial?.catch(() => undefined);
      return this.execute(work);
    }
    if (this.#state === 'open') {
      if (this.clock.now().getTime() - this.#openedAt < this.options.halfOpenAfterMs) throw new CircuitOpenError();
      this.#state = 'half_open';
      const trial = this.#run(work, true);
      this.#trial = trial;
      return trial;
    }
    return this.#run(work, false);
  }

  /** Runs `work` and records its outcome; only the trial call decides the outcome of a half-open circuit. */
  async #run<T>(work: () => Promise<T>, trial: boolean): Promise<T> {
    try {
      const result = await work();
      this.#failures = 0;
      if (trial) this.#close();
      return result;
    } catch (error) {
      if (this.options.counts(error)) {
        this.#failures += 1;
        if (trial || (this.#state === 'closed' && this.#failures >= this.options.threshold)) this.#open();
      } else if (trial) {
        // The bureau answered, if not with a file: it is back. Other such failures leave the count as it was.
        this.#close();
      }
      throw error;
    }
  }

  #open(): void {
    this.#state = 'open';
    this.#openedAt = this.clock.now().getTime();
    this.options.onOpen?.();
  }

  #close(): void {
    this.#failures = 0;
    this.#state = 'closed';
    this.options.onClose?.();
  }
}
