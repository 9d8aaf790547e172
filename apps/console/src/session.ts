import { CONSOLE_CSRF_HEADER, type ConsoleSessionInfo } from '@credit/contract/console';
import { ConsoleClient } from '@credit/sdk/console';

/**
 * The console's session: the cookie (HttpOnly, so this page never sees it) and what `GET /console/session` says about
 * it, the CSRF token among it. Nothing else of the session is kept in the page or its storage.
 */
export type SessionState = { kind: 'signed-in'; info: ConsoleSessionInfo } | { kind: 'signed-out'; reason: string };

const SESSION_PATH = '/console/session';
const SIGN_OUT_PATH = '/console/signout';
export const SIGNED_OUT_PAGE = '/console/signed-out';

/** Reads the session; a 401 is an answer (no session), anything else that fails is thrown for the page to say so. */
export const loadSession = async (): Promise<SessionState> => {
  const response = await fetch(SESSION_PATH, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body = (await response.json().catch(() => undefined)) as
    | { data?: ConsoleSessionInfo; error?: { message?: string } }
    | undefined;
  if (response.status === 401) return { kind: 'signed-out', reason: body?.error?.message ?? 'No console session.' };
  if (!response.ok || !body?.data) throw new Error(`The console could not read your session (HTTP ${response.status}).`);
  return { kind: 'signed-in', info: body.data };
};

export const signOut = async (csrfToken: string): Promise<void> => {
  const response = await fetch(SIGN_OUT_PATH, { method: 'POST', headers: { [CONSOLE_CSRF_HEADER]: csrfToken } });
  if (!response.ok) throw new Error(`Signing out failed (HTTP ${response.status}); close the browser to end the session.`);
  window.location.assign(SIGNED_OUT_PAGE);
};

/** The SDK's console client, sending the session's CSRF token with every call. */
export const consoleClient = (info: ConsoleSessionInfo): ConsoleClient => new ConsoleClient({ csrfToken: () => info.csrfToken });
