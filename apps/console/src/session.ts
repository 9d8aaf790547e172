import { CONSOLE_CSRF_HEADER, type ConsoleSessionInfo } from '@credit/contract/console';
import { ConsoleClient } from '@credit/sdk/console';
import type { ConsoleLocale } from './i18n.tsx';

/**
 * The console's session: the cookie (HttpOnly, so this page never sees it) and what `GET /console/session` says about
 * it, the CSRF token among it. Nothing else of the session is kept in the page or its storage.
 */
export type SessionState = { kind: 'signed-in'; info: ConsoleSessionInfo } | { kind: 'signed-out' };

const SESSION_PATH = '/console/session';
const SIGN_OUT_PATH = '/console/signout';
export const SIGNED_OUT_PAGE = '/console/signed-out';

/** The server answered something other than a session or its absence: the page says so in its own words. */
export class SessionHttpError extends Error {
  constructor(
    readonly status: number,
    step: 'read' | 'sign-out',
  ) {
    super(`console session ${step}: HTTP ${status}`);
  }
}

/** Reads the session; a 401 is an answer (no session), anything else that fails is thrown for the page to say so. */
export const loadSession = async (): Promise<SessionState> => {
  const response = await fetch(SESSION_PATH, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (response.status === 401) return { kind: 'signed-out' };
  const info = response.ok ? sessionInfoOf(await response.json().catch(() => undefined)) : undefined;
  if (!info) throw new SessionHttpError(response.status, 'read');
  return { kind: 'signed-in', info };
};

/** The session's answer (`{ data: … }`), when it has what the page relies on: the CSRF token, the role, the scopes. */
const sessionInfoOf = (body: unknown): ConsoleSessionInfo | undefined => {
  const data: unknown = body && typeof body === 'object' && 'data' in body ? body.data : undefined;
  if (!data || typeof data !== 'object') return undefined;
  const { csrfToken, role, scopes } = data as Partial<Record<keyof ConsoleSessionInfo, unknown>>;
  const complete = typeof csrfToken === 'string' && (role === 'viewer' || role === 'editor') && Array.isArray(scopes);
  return complete ? (data as ConsoleSessionInfo) : undefined;
};

/** Ends the session, then shows the server's signed-out page in the language the console was in. */
export const signOut = async (csrfToken: string, locale: ConsoleLocale): Promise<void> => {
  const response = await fetch(SIGN_OUT_PATH, { method: 'POST', headers: { [CONSOLE_CSRF_HEADER]: csrfToken } });
  if (!response.ok) throw new SessionHttpError(response.status, 'sign-out');
  window.location.assign(`${SIGNED_OUT_PAGE}?lang=${locale}`);
};

/** The SDK's console client, sending the session's CSRF token with every call. */
export const consoleClient = (info: ConsoleSessionInfo): ConsoleClient => new ConsoleClient({ csrfToken: () => info.csrfToken });
