import type { AppContext } from '../context.ts';
import { type Clock, FrozenClock } from '../lib/clock.ts';
import type { Caller, Principal } from './principal.ts';

/** A user's sandbox test clock, as a route about the user reads it. */
export interface UserClock {
  /** The test clock's frozen time. */
  at: Date;
  /** The clock is advancing: the worker is running the user's periods, so writes about the user are refused. */
  advancing: boolean;
}

/**
 * How a route finds the test clock of the user its path names (modules/users, reached through AppContext): undefined
 * when the user is on none, or is not one the caller may see (the handler answers that 404).
 */
export type UserClockLookup = (caller: Caller, userId: string) => Promise<UserClock | undefined>;

/**
 * The API request a piece of work serves: its caller and id. A request's context carries it (`ctx.onBehalfOf`), so
 * the audit entries its work records name them (modules/audit); work of a job has none.
 */
export interface OnBehalfOf {
  readonly caller: Caller;
  readonly requestId: string;
}

/**
 * One contract operation's request as its handler and the services it calls see it, built once before the handler
 * runs and never changed. Its time is fixed when it is built: real time, or the test clock of the user the route is
 * about. Services take `ctx` (the app's context with this scope's clock and the request it serves), so every rule they
 * apply reads that time and every audit entry they record names the request.
 */
export interface RequestScope {
  readonly caller: Caller;
  readonly principal: Principal;
  readonly requestId: string;
  /** The instant the request reads as now: when it was admitted, or the user's test-clock time. */
  readonly now: Date;
  /** The request's clock: the app's (real time), or frozen at the user's test-clock time. */
  readonly clock: Clock;
  /** The user's test clock, when the route is about a user on one. */
  readonly userClock: UserClock | undefined;
  /** The app's context with `clock` as this scope's, on behalf of this request: what the handler hands to services. */
  readonly ctx: AppContext;
}

/** The app's context at a test clock's frozen time, every service object shared: a clock advance runs a user's period on it. */
export const contextAt = (ctx: AppContext, at: Date): AppContext => ({ ...ctx, clock: new FrozenClock(ctx.clock, at) });

export const requestScope = (
  ctx: AppContext,
  caller: Caller,
  requestId: string,
  userClock: UserClock | undefined,
): RequestScope => {
  const clock = userClock ? new FrozenClock(ctx.clock, userClock.at) : ctx.clock;
  const onBehalfOf: OnBehalfOf = { caller, requestId };
  return {
    caller,
    principal: caller.principal,
    requestId,
    now: clock.now(),
    clock,
    userClock,
    ctx: { ...ctx, clock, onBehalfOf },
  };
};
