import { readFile } from 'node:fs/promises';
import {
  CONSOLE_API_PREFIX,
  CONSOLE_CSRF_HEADER,
  CONSOLE_OPERATIONS,
  CONSOLE_SESSION_COOKIE,
  CONSOLE_SESSION_LIFETIME_SECONDS,
  consoleRoleMay,
  consoleScopeOf,
  createConsoleLink as createConsoleLinkOp,
} from '@credit/contract';
import { parse, serialize } from 'cookie';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import { apiRequestOf, type HttpRequest } from '../../http/api-request.ts';
import { sendBuiltFile } from '../../http/built-files.ts';
import type { Admission } from '../../http/dispatch.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { actorOf } from '../audit/service.ts';
import { assetFileFor, IMMUTABLE, isBuilt } from '../widget/service.ts';
import {
  CONSOLE_APP_PATHS,
  CONSOLE_ASSETS_DIR,
  CONSOLE_INDEX_FILE,
  consoleCsp,
  notBuiltPage,
  pageCsp,
  pageLocale,
  refusalPage,
  signedOutPage,
} from './pages.ts';
import {
  CONSOLE_AUTH_PATH,
  type ConsoleSession,
  consoleFrameAncestors,
  consolePrincipal,
  consoleSessionInfo,
  createConsoleLink,
  csrfTokenMatches,
  endSession,
  findConsoleSession,
  openConsoleSession,
  recordConsoleRequest,
} from './service.ts';

/** Only the console's own pages read the cookie: it is scoped to them, and strict, so no other site's page sends it. */
const sessionCookie = (token: string): string =>
  serialize(CONSOLE_SESSION_COOKIE, token, {
    httpOnly: true,
    // Always Secure, as the widget's cookie: browsers keep Secure cookies of http://localhost and 127.0.0.1 too.
    secure: true,
    sameSite: 'strict',
    path: '/console',
    maxAge: CONSOLE_SESSION_LIFETIME_SECONDS,
  });

const clearedSessionCookie = (): string =>
  serialize(CONSOLE_SESSION_COOKIE, '', {
    httpOnly: true,
    secure: true,
    sameSite: 'strict',
    path: '/console',
    maxAge: 0,
  });

const cookieToken = (req: HttpRequest): string | undefined => {
  const raw = req.get('cookie');
  return raw ? parse(raw)[CONSOLE_SESSION_COOKIE] : undefined;
};

/** The session a request's cookie opens, if any. */
const sessionOf = async (ctx: AppContext, req: HttpRequest): Promise<ConsoleSession | undefined> => {
  const token = cookieToken(req);
  return token ? findConsoleSession(ctx, token) : undefined;
};

const NO_SESSION =
  'No console session: open a console link (your bank’s admin tools ask for one with POST /v1/console/links, an ' +
  'operator prints one with `pnpm clients console <clientId>`).';
const SESSION_ENDED = 'Your console session has ended (signed out or past its eight hours): open a new console link.';
const CSRF_REFUSED = `A console change needs the ${CONSOLE_CSRF_HEADER} header the console page reads from GET /console/session.`;

/** Why the session may not call `operationId` (the table, the bank's client's scopes, the role), or undefined. */
const sessionRefusal = (session: ConsoleSession, operationId: string): string | undefined => {
  if (!(operationId in CONSOLE_OPERATIONS)) return `The console does not call ${operationId}; your bank’s server can.`;
  const scope = consoleScopeOf(operationId);
  if (scope && !session.client.scopes.includes(scope)) {
    return (
      `Your bank’s API client does not hold the "${scope}" scope ${operationId} needs, so no console session of it ` +
      'can call it. An operator grants scopes (pnpm clients update).'
    );
  }
  if (consoleRoleMay(session.staff.role, operationId)) return undefined;
  return (
    `Your console role is ${session.staff.role}: it shows everything and changes nothing. Ask for a console link ` +
    'with the editor role to make changes.'
  );
};

/**
 * The door of `/console/api/v1/…`: the session cookie says who is calling (an `Authorization` header is not read),
 * counted like the bank's own calls; then the console's table and the staff member's role decide, a change needs
 * the CSRF header, and every call is on the audit trail, refused ones too.
 */
export const consoleAdmission = (ctx: AppContext): Admission => {
  const sessions = new WeakMap<HttpRequest, ConsoleSession>();
  return {
    async resolve(_ctx, req) {
      const token = cookieToken(req);
      if (!token) return;
      const session = await findConsoleSession(ctx, token);
      if (!session) {
        req.authFailure = SESSION_ENDED;
        return;
      }
      sessions.set(req, session);
      req.principal = consolePrincipal(session);
    },
    async permit(req, op) {
      const session = sessions.get(req);
      if (!session) {
        throw new ApiError('AUTHENTICATION_ERROR', req.authFailure ?? NO_SESSION, undefined, undefined, {
          credentialsRefused: Boolean(req.authFailure),
        });
      }
      const csrf = req.get(CONSOLE_CSRF_HEADER);
      const refusal =
        op.method !== 'get' && !(csrf && csrfTokenMatches(ctx, session.token, csrf))
          ? CSRF_REFUSED
          : sessionRefusal(session, op.operationId);
      await recordConsoleRequest(ctx, session, {
        operationId: op.operationId,
        requestId: req.requestId,
        params: req.params,
        access: refusal ? 'refused' : 'granted',
      });
      if (refusal) throw new ApiError('AUTHORIZATION_ERROR', refusal);
      if (op.auth.kind === 'bearer') req.principal = consolePrincipal(session, op.auth.scope);
    },
  };
};

/** The contract path a console API request names (`/console/api/v1/x` → `/v1/x`), or undefined for any other path. */
export const consoleApiPath = (path: string): string | undefined =>
  path.startsWith(`${CONSOLE_API_PREFIX}/v1/`) ? path.slice(CONSOLE_API_PREFIX.length) : undefined;

/** The language of a page of ours for this request (the console's `lang`, else the browser's). */
const localeOf = (req: Request) => pageLocale(req.query.lang, req.get('accept-language'));

const sendPage = (res: Response, status: number, html: string) => {
  res.setHeader('Content-Security-Policy', pageCsp());
  // The language follows the browser's Accept-Language: a shared cache keeps one answer per language.
  res.vary('Accept-Language');
  res.status(status).type('html').send(html);
};

/** `GET /console/auth?token=…`: the link's one use, exchanged for the cookie; the address bar then drops the token. */
const openLink = (ctx: AppContext) => async (req: Request, res: Response) => {
  // A HEAD (a link checker's) never spends the one use: only a browser's GET signs in.
  if (req.method === 'HEAD') {
    res.setHeader('Content-Security-Policy', pageCsp());
    res.status(200).type('html').end();
    return;
  }
  const token = typeof req.query.token === 'string' ? req.query.token : '';
  const opened = await openConsoleSession(ctx, token, apiRequestOf(res).requestId);
  if ('refused' in opened) {
    const { status, html } = refusalPage(opened.refused, localeOf(req));
    sendPage(res, status, html);
    return;
  }
  res.setHeader('Set-Cookie', sessionCookie(opened.token));
  res.setHeader('Content-Security-Policy', consoleCsp(consoleFrameAncestors(opened.client)));
  // 303: the browser follows with a GET of the console itself, and the link's address is left behind.
  res.redirect(303, '/console/');
};

/** `GET /console/session`: who is signed in and the CSRF token, read by the console page (same origin only). */
const readSession = (ctx: AppContext) => async (_req: Request, res: Response) => {
  const req = apiRequestOf(res);
  const session = await sessionOf(ctx, req);
  if (!session) throw new ApiError('AUTHENTICATION_ERROR', cookieToken(req) ? SESSION_ENDED : NO_SESSION);
  res.json({ data: consoleSessionInfo(ctx, session) });
};

/** `POST /console/signout` (with the CSRF header): the session ends, the cookie goes. */
const signOut = (ctx: AppContext) => async (_req: Request, res: Response) => {
  const req = apiRequestOf(res);
  const session = await sessionOf(ctx, req);
  if (session) {
    const csrf = req.get(CONSOLE_CSRF_HEADER);
    if (!csrf || !csrfTokenMatches(ctx, session.token, csrf)) throw new ApiError('AUTHORIZATION_ERROR', CSRF_REFUSED);
    await endSession(ctx, session, req.requestId);
  }
  res.setHeader('Set-Cookie', clearedSessionCookie());
  res.status(204).end();
};

/** The app's index.html, framed only by the signed-in client's embed origins (nobody without a session). */
const serveApp = (ctx: AppContext) => async (req: Request, res: Response) => {
  if (!isBuilt(CONSOLE_INDEX_FILE)) {
    sendPage(res, 503, notBuiltPage(localeOf(req)));
    return;
  }
  const html = await readFile(CONSOLE_INDEX_FILE, 'utf8');
  const session = await sessionOf(ctx, apiRequestOf(res));
  res.setHeader('Content-Security-Policy', consoleCsp(consoleFrameAncestors(session?.client)));
  // frame-ancestors decides framing; X-Frame-Options would contradict it in older browsers.
  res.removeHeader('X-Frame-Options');
  res.type('html').send(html);
};

/** The console link operation, and the console's pages outside the contract. */
export const consoleRoutes = (ctx: AppContext): ModuleRoutes => {
  const operations = [
    bindRoute(ctx, createConsoleLinkOp, async ({ req, body, caller }) => ({
      data: await createConsoleLink(ctx, caller.clientId, body, actorOf(caller.principal), req.requestId),
    })),
  ];
  // Strict: `/console` (redirected) and `/console/` (the app) are two paths.
  const pages = Router({ strict: true });
  pages.get('/console', (_req, res) => res.redirect(301, '/console/'));
  pages.get(CONSOLE_AUTH_PATH, openLink(ctx));
  pages.get('/console/session', readSession(ctx));
  pages.post('/console/signout', signOut(ctx));
  pages.get('/console/signed-out', (req, res) => sendPage(res, 200, signedOutPage(localeOf(req))));
  pages.get(CONSOLE_APP_PATHS, serveApp(ctx));
  return { operations, pages };
};

/** Whether a path is one consoleStaticRoutes serves (the app skips that router for every other request). */
export const isConsoleFile = (path: string): boolean => path.startsWith('/console/assets/');

/** `/console/assets/<name>`: hashed, precompressed files cached for a year, served before authentication. */
export const consoleStaticRoutes = (assetsDir = CONSOLE_ASSETS_DIR): Router => {
  const router = Router();
  router.use('/console/assets', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = assetFileFor(req.path.slice(1), assetsDir);
    if (!file) return next();
    return sendBuiltFile(req, res, next, file, { cacheControl: IMMUTABLE });
  });
  return router;
};
