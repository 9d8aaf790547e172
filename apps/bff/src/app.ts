import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from './context.ts';
import { ApiError, validationError } from './core/api-error.ts';
import { accessLog } from './http/access-log.ts';
import { ApiRequest, apiRequestOf, type HttpRequest, type TrustProxy } from './http/api-request.ts';
import { classifyBodyError } from './http/body-errors.ts';
import { arrivesEmpty, bodyShapeProblem, EMPTY_BODY_PROBE_BYTES, hasBody } from './http/body-shape.ts';
import { type Admission, admitPages, admitRequest, type OperationRoute, serveOperation } from './http/dispatch.ts';
import { errorAnswer } from './http/error-response.ts';
import { OperationTable } from './http/operation-table.ts';
import { assignRequestId } from './http/request-id.ts';
import { readTarget } from './http/request-target.ts';
import { type ModuleRoutes, send } from './http/route.ts';
import { securityHeaders } from './http/security-headers.ts';
import { alertEmailRoutes } from './modules/alert-emails/routes.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { credentialsRoutes } from './modules/clients/routes.ts';
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

/** API answers are private and current: never stored by a cache. Static assets are served before this and set their own. */
const noStore = (res: ServerResponse): void => {
  res.setHeader('Cache-Control', 'no-store');
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
 * The server's request listener. Every request target is read once (http/request-target.ts): one no URL may hold is
 * refused with a 400 before anything is dispatched. Every request gets the API's own request context
 * (http/api-request.ts) and passes the same steps (request id, access log, security headers, no-store, body, who is
 * calling, the rate limit). A request that names a contract operation is then served by its route; the console's
 * calls (`/console/api/v1/…`) are the same operations, admitted by the console's session instead of a bearer token.
 * Everything else (static files, docs, the widget frame, the console's pages, the sandbox landing page, OPTIONS, 405,
 * 404) goes to Express, used as its authors intend, whose steps read the same context from `res.locals`.
 */
export const createApp = (ctx: AppContext): RequestListener => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.set('etag', false);
  // A page is never fresh: Express would answer `If-None-Match: *` with a 304 even without an ETag. Defined once on
  // this app's request prototype (Express's extension point), so no request object is touched.
  Object.defineProperty(app.request, 'fresh', { get: () => false, configurable: true });
  // Express compiles `trust proxy` into this function; the API's request context reads the caller's address with it.
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
  /** The steps every request takes first, static files included. */
  const begin = (req: ApiRequest, res: ServerResponse) => {
    assignRequestId(req, res);
    logAccess(req, res);
    setSecurityHeaders(res);
  };

  app.use((req, res, next) => {
    const api = new ApiRequest(req, { path: req.path, url: req.originalUrl }, trust);
    res.locals.apiRequest = api;
    begin(api, res);
    next();
  });
  // Static files need neither a principal nor a database: served before both, and not counted.
  app.use((req, res, next) => (isWidgetFile(req.path) ? widgetFiles(req, res, next) : next()));
  app.use((req, res, next) => (isConsoleFile(req.path) ? consoleFiles(req, res, next) : next()));
  app.use((req, res, next) => {
    noStore(res);
    readBody(apiRequestOf(res), req, res).then(() => next(), next);
  });
  app.use(admitPages(ctx, operations));
  for (const { pages } of modules) if (pages) app.use(pages);
  app.use(unknownRoute);
  const handleError: ErrorRequestHandler = (error, _req, res, _next) => answerError(error, apiRequestOf(res), res);
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

  /** Runs `work` after the first steps, answering what it throws. */
  const serve = async (req: ApiRequest, res: ServerResponse, work: () => Promise<void>) => {
    try {
      begin(req, res);
      noStore(res);
      await work()
        .catch((error: unknown) => answerError(error, req, res))
        .catch((error: unknown) => answerFailed(error, req, res));
    } catch (error) {
      answerFailed(error, req, res);
    }
  };
  const serveMatch = (req: ApiRequest, res: ServerResponse, match: OperationRoute, admission?: Admission) =>
    serve(req, res, async () => {
      await readBody(req, req.raw, res);
      await serveOperation(ctx, req, res, match, admission);
    });

  return (incoming, outgoing) => {
    const target = readTarget(incoming.url ?? '');
    if ('serverWide' in target) return app(incoming, outgoing);
    if ('refused' in target) {
      // Counted like any request, then refused: nothing reads a path that two parsers could read differently.
      const req = new ApiRequest(incoming, { path: '', url: '' }, trust);
      void serve(req, outgoing, async () => {
        await admitRequest(ctx, req, outgoing);
        throw validationError([{ field: 'target', message: target.refused }]);
      });
      return;
    }
    const method = incoming.method ?? '';
    // The console's calls: the same operations, at `/console/api` + their path, admitted by its session (modules/console).
    const consolePath = consoleApiPath(target.path);
    if (consolePath !== undefined) {
      const consoleMatch = operations.match(method, consolePath);
      if (consoleMatch && 'route' in consoleMatch) {
        const req = new ApiRequest(incoming, { path: consolePath, url: target.url }, trust);
        void serveMatch(req, outgoing, consoleMatch, consoleApi);
        return;
      }
    }
    const match = operations.match(method, target.path);
    if (match && 'route' in match) void serveMatch(new ApiRequest(incoming, target, trust), outgoing, match);
    else app(incoming, outgoing);
  };
};
