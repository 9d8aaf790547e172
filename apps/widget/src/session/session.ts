import type { TWidgetSession } from '@credit/contract';
import { WIDGET_CSRF_HEADER, type WidgetDisclosure, type WidgetLocale } from '@credit/contract/widget-protocol';
import { type CreditAuth, CreditClient, isCreditApiError } from '@credit/sdk/browser';
import { WidgetSessionClient } from '@credit/sdk/widget-session';
import { WidgetError } from '../errors/widget-error.ts';

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
  /** What the host may learn about the score through events: the client's setting, from the server. */
  disclosure: WidgetDisclosure;
  /** What the consent instruction says (its version, how long, how often, who receives the file). */
  consentTerms: TWidgetSession['consentTerms'];
  /** The server's clock minus this device's, from the exchange: consent times are the server's, not the device's. */
  serverOffsetMs: number;
}

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Headers that authenticate a call with whichever mode `session` ended up in. */
export const authHeaders = (session: WidgetSessionState | null): Record<string, string> => {
  if (!session) return {};
  if (session.mode === 'bearer' && session.userToken) return { authorization: `Bearer ${session.userToken}` };
  return { [WIDGET_CSRF_HEADER]: session.csrfToken };
};

/** The frame talks to the API that served it; the page's own fetch keeps the cookie (same origin). */
export const widgetClient = (auth: CreditAuth, fetch: Fetch | undefined) =>
  // react-query decides about retrying reads; the client answers at once so the screens stay responsive.
  new CreditClient({ baseUrl: '', auth, fetch: fetch as typeof globalThis.fetch | undefined, maxRetries: 0 });

/** The frame's own session routes: internal operations, outside the SDK's public list. */
const sessionClient = (auth: CreditAuth, fetch: Fetch | undefined) =>
  new WidgetSessionClient({ baseUrl: '', auth, fetch: fetch as typeof globalThis.fetch | undefined, maxRetries: 0 });

/** One exchange's fixed credentials: a refusal is final, never renewed (the refresher decides about renewal). */
const fixedAuth = (headers: Record<string, string>): CreditAuth => ({ headers: async () => headers, renew: () => false });

/** The frame's widget session: started from a user token at `POST /widget/session`, replaced on renewal. */
export class WidgetSession {
  private state: WidgetSessionState | null = null;

  constructor(
    /** The embedding page's origin from the frame URL, or null in a top-level webview. */
    private readonly parentOrigin: string | null,
    private readonly fetch?: Fetch,
  ) {}

  current(): WidgetSessionState | null {
    return this.state;
  }

  /**
   * Exchanges a user token for a widget session, then checks whether the cookie came back: browsers
   * that block third-party cookies (Safari, partitioning off) drop it, and the frame falls back to
   * sending the token itself. `locale`, the language the frame shows, becomes that of the user's alert e-mails.
   */
  async start(userToken: string, locale?: WidgetLocale): Promise<WidgetSessionState> {
    const exchanged = await sessionClient(fixedAuth({ authorization: `Bearer ${userToken}` }), this.fetch)
      .request('createWidgetSession', { body: { parentOrigin: this.parentOrigin, ...(locale ? { locale } : {}) } })
      .catch((error: unknown) => {
        throw sessionRefusal(error);
      });
    const received = Date.now();
    const { data: created, meta } = exchanged.body;
    // The answer was written before it arrived, so the estimate never puts the server's clock ahead of itself.
    const serverTime = Date.parse(meta.timestamp);
    const cookieWorks = await sessionClient(fixedAuth({ [WIDGET_CSRF_HEADER]: created.csrfToken }), this.fetch)
      .call('getWidgetSession')
      .then(
        () => true,
        (error: unknown) => {
          if (isCreditApiError(error) && error.status === 401) return false;
          throw error;
        },
      );
    this.state = {
      mode: cookieWorks ? 'cookie' : 'bearer',
      csrfToken: created.csrfToken,
      userToken: cookieWorks ? null : userToken,
      userId: created.userId,
      expiresAt: created.expiresAt,
      disclosure: created.disclosure,
      consentTerms: created.consentTerms,
      serverOffsetMs: Number.isFinite(serverTime) ? serverTime - received : 0,
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

  /** Now on the server's clock (the time a consent is recorded against), estimated from the exchange. */
  serverNow(): Date {
    return new Date(Date.now() + (this.state?.serverOffsetMs ?? 0));
  }
}

const sessionRefusal = (error: unknown): unknown => {
  if (isCreditApiError(error, 'AUTHORIZATION_ERROR')) {
    // Only a refusal that names the parent origin is about where the widget is embedded; any other
    // refusal (a scope, a disabled client) must not tell the customer this website is to blame.
    const aboutOrigin = error.details.some((detail) => detail.field === 'parentOrigin');
    return new WidgetError(aboutOrigin ? 'ORIGIN_NOT_ALLOWED' : 'UNKNOWN', error.message, { requestId: error.requestId });
  }
  if (isCreditApiError(error, 'AUTHENTICATION_ERROR')) {
    return new WidgetError('INVALID_TOKEN', error.message, { requestId: error.requestId });
  }
  return error;
};
