import { WidgetApiError } from '../api/errors.ts';
import { requestFreshToken } from '../bridge/host.ts';
import { startSession, type WidgetSessionState } from './session.ts';

let inFlight: Promise<WidgetSessionState> | null = null;
let expired: WidgetApiError | null = null;
const expiredListeners = new Set<(error: WidgetApiError) => void>();

const markExpired = (error: WidgetApiError) => {
  expired = error;
  for (const listener of expiredListeners) listener(error);
};

/**
 * Asks the host for a fresh token and starts a new session with it. Calls that fail together share
 * one refresh, so the host sees one `token_request`, not one per query.
 */
export const refreshSession = (): Promise<WidgetSessionState> => {
  if (expired) return Promise.reject(expired);
  inFlight ??= (async () => {
    const token = await requestFreshToken();
    if (!token) throw new WidgetApiError(401, 'INVALID_TOKEN', 'The session expired and the host had no fresh user token.');
    return startSession(token);
  })()
    .catch((error: unknown) => {
      if (error instanceof WidgetApiError && (error.code === 'INVALID_TOKEN' || error.code === 'ORIGIN_NOT_ALLOWED')) {
        markExpired(error);
      }
      throw error;
    })
    .finally(() => {
      inFlight = null;
    });
  return inFlight;
};

/** App replaces every screen with the expired-session screen once the session cannot be renewed. */
export const onSessionExpired = (listener: (error: WidgetApiError) => void): (() => void) => {
  expiredListeners.add(listener);
  return () => {
    expiredListeners.delete(listener);
  };
};

/** Called after a fresh session starts from the error screen's retry. */
export const clearExpired = (): void => {
  expired = null;
};
