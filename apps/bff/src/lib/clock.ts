import { currentWorkScope, runWithScopePart } from './work-scope.ts';

/** The source of "now" for every rule that depends on time, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance without sleeping. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-15T10:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(at: Date | string): void {
    this.#ms = new Date(at).getTime();
  }
}

/**
 * What "now" is for the work running in one async context (a request, or one period of a clock advance): a sandbox
 * test clock's frozen time once the work turns out to be about a user on a clock, else real time. Mutable, because
 * the request learns its user (and so its clock) only mid-way, in the users service; a fresh one per request.
 */
export interface ClockScope {
  /** The test clock's time, once known; null = real time. */
  at: Date | null;
  /** Whether the request that opened this scope may write (its method is not GET or HEAD). */
  writes: boolean;
}

const currentScope = (): ClockScope | undefined => currentWorkScope()?.clock as ClockScope | undefined;

/**
 * Runs `work` in `scope` and ends the scope when it settles: a pooled socket or timer created inside may outlive it
 * and carry it into unrelated work, which must see real time again.
 */
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

/** The scope of the current request or job, if one was opened. */
export const currentClockScope = (): ClockScope | undefined => currentScope();

/**
 * `ctx.clock`: the scope's test-clock time when set, else the base clock. Tokens, leases and rate limits read the
 * base clock directly (they are checked before the user is known, or are about the machine, not the user).
 */
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
}

/** Real time from any clock (a ScopedClock's base), for leases and records about the system itself. */
export const realNow = (clock: Clock): Date => (clock instanceof ScopedClock ? clock.realNow() : clock.now());
