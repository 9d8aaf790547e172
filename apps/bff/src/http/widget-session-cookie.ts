import { WIDGET_CSRF_HEADER, WIDGET_SESSION_COOKIE } from '@credit/contract/widget-protocol';
import { parse, serialize } from 'cookie';
import type { AppContext } from '../context.ts';
import { openWidgetSession, type SealedWidgetSession } from '../security/widget-session.ts';
import type { HttpRequest } from './api-request.ts';

/**
 * The widget session travels in its cookie (security/widget-session.ts seals it). A cross-site page cannot send the
 * custom CSRF header without a CORS preflight the API never grants.
 *
 * A partitioned cookie is shared by every frame under one top-level site, so each session gets its own
 * cookie name, derived from its CSRF token: two tabs or two widgets on one page never overwrite each other.
 */

/** `cw_session_<16 hex>`: the cookie a CSRF token belongs to (a prefix of it, so it names without revealing it). */
export const sessionCookieName = (csrfToken: string) => `${WIDGET_SESSION_COOKIE}_${csrfToken.slice(0, 16)}`;

/** The `Set-Cookie` value that hands a sealed session to the frame until `expiresAt`. */
export const widgetSessionCookie = (session: SealedWidgetSession, expiresAt: Date): string =>
  serialize(sessionCookieName(session.csrfToken), session.sealedToken, {
    httpOnly: true,
    secure: true,
    sameSite: 'none',
    partitioned: true,
    path: '/',
    expires: expiresAt,
  });

const SESSION_COOKIE_PREFIX = `${WIDGET_SESSION_COOKIE}_`;
const CSRF_SHAPE = /^[0-9a-f]{64}$/;

/** The token inside a request's session cookie, once its CSRF header checks out; `undefined` without a cookie. */
export const readWidgetSession = (ctx: AppContext, req: HttpRequest): { token: string } | { failure: string } | undefined => {
  const raw = req.get('cookie');
  const cookies = raw ? parse(raw) : {};
  if (!Object.keys(cookies).some((name) => name.startsWith(SESSION_COOKIE_PREFIX))) return undefined;
  const csrf = req.get(WIDGET_CSRF_HEADER);
  if (!csrf) return { failure: `A widget session cookie needs the ${WIDGET_CSRF_HEADER} header.` };
  if (!CSRF_SHAPE.test(csrf)) return { failure: `The ${WIDGET_CSRF_HEADER} header is malformed.` };
  const sealed = cookies[sessionCookieName(csrf)];
  if (!sealed) return { failure: `No widget session cookie belongs to this ${WIDGET_CSRF_HEADER} header; start a new session.` };
  const opened = openWidgetSession(ctx, sealed, csrf);
  if ('token' in opened) return opened;
  return {
    failure:
      opened.failure === 'unreadable'
        ? 'The widget session is not valid; start a new one with a fresh user token.'
        : `The ${WIDGET_CSRF_HEADER} header does not match the widget session.`,
  };
};
