/** The source of "now" for every rule that depends on time, and of every wait such a rule makes, so tests can move it. */
export interface Clock {
  now(): Date;
  /** Waits run on the clock too, so tests end a backoff or deadline by moving it instead of sleeping. */
  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void>;
}

export interface SleepOptions {
  /** The wait does not keep the process alive (background passes): at exit it is simply never woken. */
  unref?: boolean;
}

const abortableWait = (signal: AbortSignal | undefined, start: (wake: () => void) => () => void): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      stop();
      reject(signal?.reason);
    };
    const stop = start(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal, options) =>
    abortableWait(signal, (wake) => {
      const timer = setTimeout(wake, ms);
      if (options?.unref) timer.unref();
      return () => clearTimeout(timer);
    }),
};

/** A clock tests can set and advance without sleeping: a wait on it ends when the clock is moved past its end. */
export class ManualClock implements Clock {
  #ms: number;
  readonly #sleepers = new Set<{ until: number; wake: () => void }>();
  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
    this.#wakeDue();
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
    this.#wakeDue();
  }
  /** `options` changes nothing here: a manual clock holds no timer that could keep a process alive. */
  sleep(ms: number, signal?: AbortSignal, _options?: SleepOptions): Promise<void> {
    return abortableWait(signal, (wake) => {
      const sleeper = { until: this.#ms + Math.max(0, ms), wake };
      this.#sleepers.add(sleeper);
      this.#wakeDue();
      return () => this.#sleepers.delete(sleeper);
    });
  }
  /** Lets a test move the clock only once the work it drives has reached the wait it means to end. */
  pendingWaits(): number[] {
    return [...this.#sleepers].map((sleeper) => sleeper.until - this.#ms).sort((a, b) => a - b);
  }
  #wakeDue(): void {
    for (const sleeper of this.#sleepers) {
      if (sleeper.until > this.#ms) continue;
      this.#sleepers.delete(sleeper);
      sleeper.wake();
    }
  }
}

/**
 * A clock stopped at one instant: a sandbox test clock's time, which is what a request or a clock advance about a user
 * on it reads as now. Waits and real time still come from the clock it was made from, since nothing moves a frozen
 * time while work waits on it.
 */
export class FrozenClock implements Clock {
  readonly #ms: number;
  constructor(
    readonly base: Clock,
    at: Date,
  ) {
    this.#ms = at.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void> {
    return this.base.sleep(ms, signal, options);
  }
}

/** Real time from any clock (a frozen clock's base), for leases, tokens and records about the system itself. */
export const realNow = (clock: Clock): Date => (clock instanceof FrozenClock ? realNow(clock.base) : clock.now());
