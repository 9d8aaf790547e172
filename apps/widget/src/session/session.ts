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

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

interface CreatedSession {
  csrfToken: string;
  expiresAt: string;
  userId: string | null;
}

const isParentOriginRefusal = (error: WidgetApiError): boolean =>
  error.status === 403 && (error.details ?? []).some((detail) => detail.field === 'parentOrigin');

/** Headers that authenticate a call with whichever mode `session` ended up in. */
export const authHeaders = (session: WidgetSessionState | null): Record<string, string> => {
  if (!session) return {};
  if (session.mode === 'bearer' && session.userToken) return { Authorization: `Bearer ${session.userToken}` };
  return { [WIDGET_CSRF_HEADER]: session.csrfToken };
};

/** The frame's widget session: started from a user token at `POST /widget/session`, replaced on renewal. */
export class WidgetSession {
  private state: WidgetSessionState | null = null;

  constructor(
    /** The embedding page's origin from the frame URL, or null in a top-level webview. */
    private readonly parentOrigin: string | null,
    private readonly fetch: Fetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  current(): WidgetSessionState | null {
    return this.state;
  }

  /**
   * Exchanges a user token for a widget session, then checks whether the cookie came back: browsers
   * that block third-party cookies (Safari, partitioning off) drop it, and the frame falls back to
   * sending the token itself.
   */
  async start(userToken: string): Promise<WidgetSessionState> {
    const created = await this.send('/widget/session', {
      method: 'POST',
      headers: { Authorization: `Bearer ${userToken}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ parentOrigin: this.parentOrigin }),
    });
    if (!created.ok) throw await sessionRefusal(created);
    const { data } = (await created.json()) as { data: CreatedSession };
    const probe = await this.send('/widget/session', {
      method: 'GET',
      headers: { [WIDGET_CSRF_HEADER]: data.csrfToken, Accept: 'application/json' },
    });
    const cookieWorks = probe.ok;
    if (!cookieWorks && probe.status !== 401) throw await errorFromResponse(probe);
    this.state = {
      mode: cookieWorks ? 'cookie' : 'bearer',
      csrfToken: data.csrfToken,
      userToken: cookieWorks ? null : userToken,
      userId: data.userId,
      expiresAt: data.expiresAt,
    };
    return this.state;
  }

  /**
   * After enrolment the session learns its user id from the API's answer rather than a new exchange. In
   * place: the session's identity tells the API client whether a 401 came from an older session.
   */
  rememberUserId(userId: string): void {
    if (this.state) this.state.userId = userId;
  }

  private async send(input: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(input, { ...init, credentials: 'same-origin', cache: 'no-store' });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw networkError(error);
    }
  }
}

const sessionRefusal = async (response: Response): Promise<WidgetApiError> => {
  const error = await errorFromResponse(response);
  if (error.code === 'AUTHORIZATION_ERROR') {
    // Only a refusal that names the parent origin is about where the widget is embedded; any other
    // refusal (a scope, a disabled client) must not tell the customer this website is to blame.
    const code = isParentOriginRefusal(error) ? 'ORIGIN_NOT_ALLOWED' : 'UNKNOWN';
    return new WidgetApiError(error.status, code, error.message, { requestId: error.requestId, details: error.details });
  }
  if (error.code === 'AUTHENTICATION_ERROR') {
    return new WidgetApiError(error.status, 'INVALID_TOKEN', error.message, { requestId: error.requestId });
  }
  return error;
};
