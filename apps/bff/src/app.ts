import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from './context.ts';
import { ApiError } from './core/api-error.ts';
import { accessLog } from './http/access-log.ts';
import { ApiRequest, type HttpRequest, type TrustProxy } from './http/api-request.ts';
import { classifyBodyError } from './http/body-errors.ts';
import { arrivesEmpty, bodyShapeProblem, EMPTY_BODY_PROBE_BYTES, hasBody } from './http/body-shape.ts';
import { type Admission, dispatchOperations, serveOperation } from './http/dispatch.ts';
import { errorAnswer } from './http/error-response.ts';
import { OperationTable } from './http/operation-table.ts';
import { assignRequestId } from './http/request-id.ts';
import { type ModuleRoutes, send } from './http/route.ts';
import { securityHeaders } from './http/security-headers.ts';
import { alertEmailRoutes } from './modules/alert-emails/routes.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { credentialsRoutes } from './modules/clients/routes.ts';
import { clockScopePerRequest } from './modules/clocks/request-scope.ts';
import { clockRoutes } from './modules/clocks/routes.ts';
import { consoleAdmission, consoleApiPath, consoleRoutes, consoleStaticRoutes, isConsoleFile } from './modules/console/routes.ts';
import { creditRoutes } from './modules/credit/routes.ts';
import { docsRoutes } from './modules/docs/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
import { kitRoutes } from './modules/kit/routes.ts';
import { monitoringRoutes } from './modules/monitoring/routes.ts';
import { offerRoutes } from './modules/offers/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { sandboxLandingRoutes } from './modules/sandbox-landing/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { verificationRoutes } from './modules/verification/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { isWidgetFile, widgetRoutes, widgetStaticRoutes } from './modules/widget/routes.ts';

export const BODY_LIMIT = '1mb';
const BODY_LIMIT_BYTES = 1024 * 1024;

/** `TRUST_PROXY`: unset → none; `true`; a hop count; or addresses/CIDRs/`loopback` as Express takes them. */
const trustProxySetting = (value: string | undefined): boolean | number | string => {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
};

const BODY_PARSERS: RequestHandler[] = [
  express.json({ limit: BODY_LIMIT, strict: true }),
  express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 50 }),
];

/** One body parser run on the Node request (body-parser reads its stream and sets its `body`): the error, if any. */
const runParser = (parser: RequestHandler, stream: IncomingMessage, res: ServerResponse): Promise<unknown> =>
  new Promise((resolve) => parser(stream as Request, res as Response, resolve));

/**
 * Parses a body (JSON or a form) but keeps a parse failure for later, so the route's rate limit still counts (and
 * labels) the request. `stream` is the Node request the body arrives on: Express's request is one, an operation's
 * request context holds one.
 */
const readBody = async (req: HttpRequest, stream: IncomingMessage, res: ServerResponse): Promise<void> => {
  if (!hasBody(req)) return;
  // A compressed body is refused by its announced length before anything is inflated; inflated, the same limit
  // applies again (body-parser), so neither side of the decompression can exceed it.
  if (req.get('content-encoding') && Number(req.get('content-length') ?? 0) > BODY_LIMIT_BYTES) {
    req.bodyError = { type: 'entity.too.large', message: 'request entity too large' };
    return;
  }
  for (const parser of BODY_PARSERS) {
    const error = await runParser(parser, stream, res);
    if (error) {
      req.bodyError = classifyBodyError(error, req) as HttpRequest['bodyError'];
      return;
    }
  }
  req.body = (stream as IncomingMessage & { body?: unknown }).body;
  if (req.body !== undefined) req.bodyError = bodyShapeProblem(req.body) as HttpRequest['bodyError'];
  // A body of a type no parser reads is refused unless it says nothing (no byte, or only `{}`): http/body-shape.ts.
  else if (!req.get('content-encoding') && Number(req.get('content-length') ?? 0) <= EMPTY_BODY_PROBE_BYTES) {
    req.emptyBody = await arrivesEmpty(stream);
  }
};

/**
 * API answers are private and current: never stored by a cache, no ETag and never a 304. Express answers 304
 * to `If-None-Match: *` even without an ETag (`req.fresh`), so an API request is never fresh.
 * Static assets are served before this and set their own caching.
 */
const noStore = (req: HttpRequest, res: ServerResponse): void => {
  res.setHeader('Cache-Control', 'no-store');
  // Without validators in the request Express's `req.fresh` is false; dropping them (rarely sent to an API) keeps
  // every request object the same shape, where redefining `fresh` per request cost every later property access.
  if (req.headers['if-none-match'] !== undefined) delete req.headers['if-none-match'];
  if (req.headers['if-modified-since'] !== undefined) delete req.headers['if-modified-since'];
};

/**
 * Every module's routes, as values: the contract operations each binds (bindRoute), from which `createApp` builds the
 * operation table, and the pages outside the contract (docs, health, the widget frame, the sandbox's landing page),
 * which Express serves. Building them registers nothing.
 */
export const moduleRoutes = (ctx: AppContext): ModuleRoutes[] => [
  docsRoutes(ctx),
  authRoutes(ctx),
  userRoutes(ctx),
  creditRoutes(ctx),
  monitoringRoutes(ctx),
  offerRoutes(ctx),
  alertRoutes(ctx),
  alertEmailRoutes(ctx),
  verificationRoutes(ctx),
  sandboxRoutes(ctx),
  clockRoutes(ctx),
  sandboxLandingRoutes(ctx),
  webhookRoutes(ctx),
  eventRoutes(ctx),
  auditRoutes(ctx),
  widgetRoutes(ctx),
  kitRoutes(ctx),
  consoleRoutes(ctx),
  credentialsRoutes(ctx),
];

/** No operation and no page: a 404 (counted like any request, before it got here). */
const unknownRoute: RequestHandler = (req) => {
  throw new ApiError('NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`);
};

/**
 * The characters for which Express (parseurl) reads a path with `url.parse`, which may differ from a plain split at
 * `?` (a `#`, whitespace): such a request goes to Express, which decides as it always did.
 */
const UNUSUAL_PATH = /[\t\n\f\r #\u00a0\ufeff]/;

/** The path of a request target as Express reads it, or undefined when only Express should read it. */
const plainPath = (url: string): string | undefined => {
  if (url.charCodeAt(0) !== 47) return undefined; // absolute-form or `*`: Express's business
  // parseurl falls back to url.parse when such a character is anywhere in the target, query included.
  if (UNUSUAL_PATH.test(url)) return undefined;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * The server's request listener. A request that names a contract operation is served by the operation table's
 * dispatcher over a request context of its own (http/api-request.ts): the same steps as every API request (request id,
 * access log, security headers, no-store, body, clock scope, who is calling, the rate limit), then the operation's
 * route. The console's calls (`/console/api/v1/…`) are the same operations by the same steps, admitted by the
 * console's session instead of a bearer token. Everything else (static files, docs, the widget frame, the console's
 * pages, the sandbox landing page, OPTIONS, 405, 404) goes to Express, used as its authors intend, through the same
 * steps. Neither path touches the other's objects.
 */
export const createApp = (ctx: AppContext): RequestListener => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.set('etag', false);
  // Express compiles `trust proxy` into this function; an operation's context reads the caller's address with it too.
  const trust = app.get('trust proxy fn') as TrustProxy;

  const modules = moduleRoutes(ctx);
  // The one operation table, built here from every module's operations in order; Express mounts only pages (below).
  const operations = new OperationTable(modules.flatMap((m) => m.operations));
  const widgetFiles = widgetStaticRoutes();
  const consoleFiles = consoleStaticRoutes();
  const consoleApi = consoleAdmission(ctx);
  const logAccess = accessLog(ctx.logger);
  const setSecurityHeaders = securityHeaders();
  const answerError = (error: unknown, req: HttpRequest, res: ServerResponse) => {
    if (res.headersSent) {
      // Half an answer cannot be finished or replaced: the connection is cut, as Express's final handler does.
      ctx.logger.error({ err: error, requestId: req.requestId }, 'error after the answer started');
      res.socket?.destroy();
      return;
    }
    send(res, errorAnswer(ctx, req, error));
  };

  app.use((req, res, next) => {
    assignRequestId(req, res);
    logAccess(req, res);
    setSecurityHeaders(res);
    next();
  });
  // Static files need neither a principal nor a database: served before both, and not counted.
  app.use((req, res, next) => (isWidgetFile(req.path) ? widgetFiles(req, res, next) : next()));
  app.use((req, res, next) => (isConsoleFile(req.path) ? consoleFiles(req, res, next) : next()));
  app.use((req, res, next) => {
    noStore(req, res);
    readBody(req, req, res).then(() => clockScopePerRequest(req.method, res, next), next);
  });
  app.use(dispatchOperations(ctx, operations));
  for (const { pages } of modules) if (pages) app.use(pages);
  app.use(unknownRoute);
  const handleError: ErrorRequestHandler = (error, req, res, _next) => answerError(error, req, res);
  app.use(handleError);

  /** The error answer itself failed: logged, and what Express's final handler does, with nothing more to go wrong. */
  const answerFailed = (error: unknown, req: HttpRequest, res: ServerResponse) => {
    ctx.logger.error({ err: error, requestId: req.requestId }, 'error answer failed');
    if (res.headersSent) res.socket?.destroy();
    else {
      res.statusCode = 500;
      res.end();
    }
  };

  const serve = async (
    req: ApiRequest,
    res: ServerResponse,
    match: Parameters<typeof serveOperation>[3],
    admission?: Admission,
  ) => {
    try {
      assignRequestId(req, res);
      logAccess(req, res);
      setSecurityHeaders(res);
      noStore(req, res);
      await readBody(req, req.raw, res);
      // An error is answered inside the scope too, so its `meta.timestamp` reads the request's clock.
      await new Promise<void>((resolve) =>
        clockScopePerRequest(req.method, res, () =>
          serveOperation(ctx, req, res, match, admission)
            .catch((error: unknown) => answerError(error, req, res))
            .catch((error: unknown) => answerFailed(error, req, res))
            .then(resolve),
        ),
      );
    } catch (error) {
      answerFailed(error, req, res);
    }
  };

  return (incoming, outgoing) => {
    const path = incoming.method === 'OPTIONS' ? undefined : plainPath(incoming.url ?? '');
    // The console's calls: the same operations, at `/console/api` + their path, admitted by its session (modules/console).
    const consolePath = path === undefined ? undefined : consoleApiPath(path);
    if (consolePath !== undefined) {
      const consoleMatch = operations.match(incoming.method ?? '', consolePath);
      if (consoleMatch && 'route' in consoleMatch) {
        void serve(new ApiRequest(incoming, consolePath, trust), outgoing, consoleMatch, consoleApi);
        return;
      }
    }
    const match = path === undefined ? undefined : operations.match(incoming.method ?? '', path);
    if (match && 'route' in match) void serve(new ApiRequest(incoming, path as string, trust), outgoing, match);
    else app(incoming, outgoing);
  };
};
