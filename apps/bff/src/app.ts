import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import type { AppContext } from './context.ts';
import { ApiError } from './core/api-error.ts';
import { accessLog } from './http/access-log.ts';
import { classifyBodyError } from './http/body-errors.ts';
import { bodyShapeProblem, hasBody } from './http/body-shape.ts';
import { dispatchOperations } from './http/dispatch.ts';
import { errorAnswer } from './http/error-response.ts';
import { OperationTable } from './http/operation-table.ts';
import { requestId } from './http/request-id.ts';
import { type ModuleRoutes, send } from './http/route.ts';
import { securityHeaders } from './http/security-headers.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { clockScopePerRequest } from './modules/clocks/request-scope.ts';
import { clockRoutes } from './modules/clocks/routes.ts';
import { creditRoutes } from './modules/credit/routes.ts';
import { docsRoutes } from './modules/docs/routes.ts';
import { eventRoutes } from './modules/events/routes.ts';
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

/** Parses a body but keeps a parse failure for later, so the route's rate limit still counts (and labels) the request. */
const deferBodyErrors =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) => {
    if (!hasBody(req)) return next();
    // A compressed body is refused by its announced length before anything is inflated; inflated, the same limit
    // applies again (body-parser), so neither side of the decompression can exceed it.
    if (req.get('content-encoding') && Number(req.get('content-length') ?? 0) > BODY_LIMIT_BYTES) {
      req.bodyError = { type: 'entity.too.large', message: 'request entity too large' };
      return next();
    }
    parser(req, res, (error?: unknown) => {
      if (error) req.bodyError = classifyBodyError(error, req) as Express.Request['bodyError'];
      else if (req.bodyError === undefined && req.body !== undefined) {
        req.bodyError = bodyShapeProblem(req.body) as Express.Request['bodyError'];
      }
      next();
    });
  };

/**
 * API answers are private and current: never stored by a cache, no ETag and never a 304. Express answers 304
 * to `If-None-Match: *` even without an ETag (`req.fresh`), so an API request is never fresh.
 * Static assets are served before this and set their own caching.
 */
const noStore: RequestHandler = (req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  // Without validators in the request Express's `req.fresh` is false; dropping them (rarely sent to an API) keeps
  // every request object the same shape, where redefining `fresh` per request cost every later property access.
  if (req.headers['if-none-match'] !== undefined) delete req.headers['if-none-match'];
  if (req.headers['if-modified-since'] !== undefined) delete req.headers['if-modified-since'];
  next();
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
  verificationRoutes(ctx),
  sandboxRoutes(ctx),
  clockRoutes(ctx),
  sandboxLandingRoutes(ctx),
  webhookRoutes(ctx),
  eventRoutes(ctx),
  auditRoutes(ctx),
  widgetRoutes(ctx),
];

/** No operation and no page: a 404 (counted like any request, before it got here). */
const unknownRoute: RequestHandler = (req) => {
  throw new ApiError('NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`);
};

/**
 * The server's one request path, Express used as its authors intend: the frame every response gets, static files,
 * then for everything else the API's steps (no-store, bodies, clock scope) and the dispatcher, which serves a
 * contract operation from the operation table; pages outside the contract, the 404 and the error handler follow.
 */
export const createApp = (ctx: AppContext): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.set('etag', false);

  const modules = moduleRoutes(ctx);
  // The one operation table, built here from every module's operations in order; Express mounts only pages (below).
  const operations = new OperationTable(modules.flatMap((m) => m.operations));
  const widgetFiles = widgetStaticRoutes();

  app.use(requestId, accessLog(ctx.logger), securityHeaders());
  // Static files need neither a principal nor a database: served before both, and not counted.
  app.use((req, res, next) => (isWidgetFile(req.path) ? widgetFiles(req, res, next) : next()));
  app.use(
    noStore,
    deferBodyErrors(express.json({ limit: BODY_LIMIT, strict: true })),
    deferBodyErrors(express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 50 })),
    clockScopePerRequest,
  );
  app.use(dispatchOperations(ctx, operations));
  for (const { pages } of modules) if (pages) app.use(pages);
  app.use(unknownRoute);
  const handleError: ErrorRequestHandler = (error, req, res, _next) => {
    if (res.headersSent) {
      // Half an answer cannot be finished or replaced: the connection is cut, as Express's final handler does.
      ctx.logger.error({ err: error, requestId: req.requestId }, 'error after the answer started');
      req.socket.destroy();
      return;
    }
    send(res, errorAnswer(ctx, req as Request, error));
  };
  app.use(handleError);
  return app;
};
