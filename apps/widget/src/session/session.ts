import { WIDGET_CSRF_HEADER } from '@credit/contract/widget-protocol';
import { errorFromResponse, isAbort, networkError, WidgetApiError } from '../api/errors.ts';

/**
 * cookie: the browser keeps the `cw_session` cookie and every call proves itself with the CSRF header.
 * bearer: the cookie was refused (third-party cookies blocked), so the token stays in memory only.
 */
export type SessionMode = 'cookie' | 'bearer';

export interface WidgetSessionState {
  mode: SessionMode;
  csrfToken: string;
  /** Kept only in bearer mode; in cookie mode the token is forgotten as soon as the cookie works. */
  userToken: string | null;
  userId: string | null;
  expiresAt: string;
}

let current: WidgetSessionState | null = null;
let parentOrigin: string | null = null;

export const currentSession = (): WidgetSessionState | null => current;

/** The embedding page's origin from the frame URL, or null in a top-level webview. */
export const setParentOrigin = (origin: string | null): void => {
  parentOrigin = origin;
};

/** Headers that authenticate a call with whichever mode the session ended up in. */
export const authHeaders = (): Record<string, string> => {
  if (!current) return {};
  if (current.mode === 'bearer' && current.userToken) return { Authorization: `Bearer ${current.userToken}` };
  return { [WIDGET_CSRF_HEADER]: current.csrfToken };
};

const send = async (input: string, init: RequestInit): Promise<Response> => {
  try {
    return await fetch(input, { ...init, credentials: 'same-origin', cache: 'no-store' });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw networkError(error);
  }
};

interface CreatedSession {
  csrfToken: string;
  expiresAt: string;
  userId: string | null;
}

/**
 * Exchanges a user token for a widget session, then checks whether the cookie came back: browsers
 * that block third-party cookies (Safari, partitioning off) drop it, and the frame falls back to
 * sending the token itself.
 */
export const startSession = async (userToken: string): Promise<WidgetSessionState> => {
  const created = await send('/widget/session', {
    method: 'POST',
    headers: { Authorization: `Bearer ${userToken}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ parentOrigin }),
  });
  if (!created.ok) {
    const error = await errorFromResponse(created);
    if (error.code === 'AUTHORIZATION_ERROR') {
      throw new WidgetApiError(error.status, 'ORIGIN_NOT_ALLOWED', error.message, { requestId: error.requestId });
    }
    if (error.code === 'AUTHENTICATION_ERROR') {
      throw new WidgetApiError(error.status, 'INVALID_TOKEN', error.message, { requestId: error.requestId });
    }
    throw error;
  }
  const { data } = (await created.json()) as { data: CreatedSession };
  const probe = await send('/widget/session', {
    method: 'GET',
    headers: { [WIDGET_CSRF_HEADER]: data.csrfToken, Accept: 'application/json' },
  });
  const cookieWorks = probe.ok;
  if (!cookieWorks && probe.status !== 401) throw await errorFromResponse(probe);
  current = {
    mode: cookieWorks ? 'cookie' : 'bearer',
    csrfToken: data.csrfToken,
    userToken: cookieWorks ? null : userToken,
    userId: data.userId,
    expiresAt: data.expiresAt,
  };
  return current;
};

/** After enrolment the session learns its user id from the API's answer rather than a new exchange. */
export const rememberUserId = (userId: string): void => {
  if (current) current = { ...current, userId };
};
