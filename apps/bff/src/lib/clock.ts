import { currentWorkScope, runWithScopePart } from './work-scope.ts';

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

/** Mutable because a request learns its user, and so its test clock, only mid-way; one fresh scope per request. */
export interface ClockScope {
  /** The test clock's time, once known; null = real time. */
  at: Date | null;
  /** Whether the request that opened this scope may write (its method is not GET or HEAD). */
  writes: boolean;
}

const currentScope = (): ClockScope | undefined => currentWorkScope()?.clock as ClockScope | undefined;

/** Ends the scope when `work` settles: a pooled socket or timer made inside may carry it into unrelated work. */
export const runInClockScope = <T>(scope: ClockScope, work: () => Promise<T>): Promise<T> =>
  runWithScopePart('clock', scope, () =>
    work().finally(() => {
      endClockScope(scope);
    }),
  );

/** Enters `scope` for `start` and all it sets off (a request's middleware chain); end it with endClockScope. */
export const enterClockScope = (scope: ClockScope, start: () => void): void => runWithScopePart('clock', scope, start);

export const endClockScope = (scope: ClockScope): void => {
  scope.at = null;
  scope.writes = false;
};

export const currentClockScope = (): ClockScope | undefined => currentScope();

/** Tokens, leases and rate limits read the base clock: they are checked before the user is known, or concern the machine. */
export class ScopedClock implements Clock {
  constructor(readonly base: Clock) {}
  now(): Date {
    const at = currentScope()?.at;
    return at ? new Date(at.getTime()) : this.base.now();
  }
  /** Real time, whatever the scope: for leases and other facts about machines rather than users. */
  realNow(): Date {
    return this.base.now();
  }
  /** Waits run on the base clock: a test clock's frozen time never moves while the work waits. */
  sleep(ms: number, signal?: AbortSignal, options?: SleepOptions): Promise<void> {
    return this.base.sleep(ms, signal, options);
  }
}

/** Real time from any clock (a ScopedClock's base), for leases and records about the system itself. */
export const realNow = (clock: Clock): Date => (clock instanceof ScopedClock ? clock.realNow() : clock.now());
