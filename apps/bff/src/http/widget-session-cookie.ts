import { timingSafeEqual } from 'node:crypto';
import { WIDGET_CSRF_HEADER, WIDGET_SESSION_COOKIE } from '@credit/contract/widget-protocol';
import { parse, serialize } from 'cookie';
import type { Request } from 'express';
import type { AppContext } from '../context.ts';

/**
 * The widget session lives entirely in its cookie: the user token, sealed with AES-256-GCM under the
 * data key, so the server keeps no session table and revoking or expiring the token ends the session.
 * The CSRF token is an HMAC of the user token: only the frame that made the session has it, and a
 * cross-site page cannot send the custom header without a CORS preflight the API never grants.
 *
 * A partitioned cookie is shared by every frame under one top-level site, so each session gets its own
 * cookie name, derived from its CSRF token: two tabs or two widgets on one page never overwrite each other.
 */
const SEAL_CONTEXT = 'widget-session';
const csrfInput = (token: string) => `widget-csrf:${token}`;

export interface SealedWidgetSession {
  setCookie: string;
  csrfToken: string;
}

/** `cw_session_<16 hex>`: the cookie a CSRF token belongs to (a prefix of it, so it names without revealing it). */
export const sessionCookieName = (csrfToken: string) => `${WIDGET_SESSION_COOKIE}_${csrfToken.slice(0, 16)}`;

export const sealWidgetSession = (ctx: AppContext, token: string, expiresAt: Date): SealedWidgetSession => {
  const csrfToken = ctx.tokens.hash(csrfInput(token));
  return {
    setCookie: serialize(sessionCookieName(csrfToken), ctx.cipher.encrypt(token, SEAL_CONTEXT), {
      httpOnly: true,
      secure: true,
      sameSite: 'none',
      partitioned: true,
      path: '/',
      expires: expiresAt,
    }),
    csrfToken,
  };
};

const SESSION_COOKIE_PREFIX = `${WIDGET_SESSION_COOKIE}_`;
const CSRF_SHAPE = /^[0-9a-f]{64}$/;

const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The token inside a request's session cookie, once its CSRF header checks out; `undefined` without a cookie. */
export const readWidgetSession = (ctx: AppContext, req: Request): { token: string } | { failure: string } | undefined => {
  const raw = req.get('cookie');
  const cookies = raw ? parse(raw) : {};
  if (!Object.keys(cookies).some((name) => name.startsWith(SESSION_COOKIE_PREFIX))) return undefined;
  const csrf = req.get(WIDGET_CSRF_HEADER);
  if (!csrf) return { failure: `A widget session cookie needs the ${WIDGET_CSRF_HEADER} header.` };
  if (!CSRF_SHAPE.test(csrf)) return { failure: `The ${WIDGET_CSRF_HEADER} header is malformed.` };
  const sealed = cookies[sessionCookieName(csrf)];
  if (!sealed) return { failure: `No widget session cookie belongs to this ${WIDGET_CSRF_HEADER} header; start a new session.` };
  let token: string;
  try {
    token = ctx.cipher.decrypt(sealed, SEAL_CONTEXT);
  } catch {
    return { failure: 'The widget session is not valid; start a new one with a fresh user token.' };
  }
  const matches = ctx.tokens.candidates(csrfInput(token)).some((digest) => sameDigest(digest, csrf));
  return matches ? { token } : { failure: `The ${WIDGET_CSRF_HEADER} header does not match the widget session.` };
};
