import { MAX_FAILED_SESSIONS } from '@credit/contract';
import { ApiError } from '../../core/api-error.ts';

export const LOCK_WINDOW_MS = 24 * 60 * 60 * 1000;

/** When verification opens again, or null when it is not locked now. */
export const lockEnd = (state: { locked_until: Date | null }, now: Date): Date | null => {
  const until = state.locked_until ? new Date(state.locked_until) : null;
  return until && until.getTime() > now.getTime() ? until : null;
};

export const verificationLocked = (unlocksAt: Date) =>
  new ApiError(
    'VERIFICATION_LOCKED',
    `Identity verification is locked after ${MAX_FAILED_SESSIONS} failed sessions within 24 hours. ` +
      `It opens again at ${unlocksAt.toISOString()}.`,
    undefined,
    { unlocksAt: unlocksAt.toISOString() },
  );

/** Throws 403 VERIFICATION_LOCKED while a lock is running. */
export const assertNotLocked = (state: { locked_until: Date | null }, now: Date): void => {
  const until = lockEnd(state, now);
  if (until) throw verificationLocked(until);
};

/**
 * The outcome of one more failure: how many sessions may still fail, and the end of the lock when
 * this failure is the one that locks (`failures` counts it).
 */
export const afterFailure = (failures: number, lastFailure: Date) => {
  const attemptsRemaining = Math.max(0, MAX_FAILED_SESSIONS - failures);
  const lockedUntil = attemptsRemaining === 0 ? new Date(lastFailure.getTime() + LOCK_WINDOW_MS) : null;
  return { attemptsRemaining, lockedUntil };
};
