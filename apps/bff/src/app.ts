import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { AppContext } from './context.ts';
import { ApiError } from './core/api-error.ts';
import { accessLog } from './http/access-log.ts';
import { classifyBodyError } from './http/body-errors.ts';
import { dispatchOperations } from './http/dispatch.ts';
import { errorAnswer } from './http/error-response.ts';
import { OperationTable } from './http/operation-table.ts';
import { requestId } from './http/request-id.ts';
import { contractRoutesOf, send } from './http/route.ts';
import { securityHeaders } from './http/security-headers.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { auditRoutes } from './modules/audit/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { clockScopePerRequest } from './modules/clocks/request-scope.ts';
import { clockRoutes } from './modules/clocks/routes.ts';
import { creditRoutes } from './modules/credit/routes.ts';
import { docsRoutes } from './modules/docs/routes.ts';
import { monitoringRoutes } from './modules/monitoring/routes.ts';
import { offerRoutes } from './modules/offers/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { sandboxLandingRoutes } from './modules/sandbox-landing/routes.ts';
import { userRoutes } from './modules/users/routes.ts';
import { verificationRoutes } from './modules/verification/routes.ts';
import { webhookRoutes } from './modules/webhooks/routes.ts';
import { isWidgetFile, widgetRoutes, widgetStaticRoutes } from './modules/widget/routes.ts';

export const BODY_LIMIT = '1mb';

/** `TRUST_PROXY`: unset → none; `true`; a hop count; or addresses/CIDRs/`loopback` as Express takes them. */
const trustProxySetting = (value: string | undefined): boolean | number | string => {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
};

/** Parses a body but keeps a parse failure for later, so the route's rate limit still counts (and labels) the request. */
const deferBodyErrors =
  (parser: RequestHandler): RequestHandler =>
  (req, res, next) =>
    !hasBody(req)
      ? next()
      : parser(req, res, (error?: unknown) => {
          if (error) req.bodyError = classifyBodyError(error, req) as Express.Request['bodyError'];
          next();
        });

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

/** The body parsers, entered only by a request that has a body (what they would decide themselves, later). */
const hasBody = (req: { headers: Record<string, unknown> }) =>
  req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;

/**
 * Every module's routes: the contract operations each binds (bindRoute), which the operation table dispatches, and
 * the pages outside the contract (docs, health, the widget frame, the sandbox's landing page), which Express serves.
 */
export const moduleRoutes = (ctx: AppContext): Router[] => [
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
  auditRoutes(ctx),
  widgetRoutes(ctx),
];

/** No operation and no page: a 404 (counted like any request, before it got here). */
const unknownRoute: RequestHandler = (req) => {
  throw new ApiError('NOT_FOUND', `No route ${req.method} ${req.path}. See /docs for the API reference.`);
};

export const createApp = (ctx: AppContext): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.set('etag', false);

  const modules = moduleRoutes(ctx);
  const operations = new OperationTable(modules.flatMap(contractRoutesOf));
  const widgetFiles = widgetStaticRoutes();

  app.use(requestId);
  app.use(accessLog(ctx.logger));
  app.use(securityHeaders());
  // Static files need neither a principal nor a database: served before both, and not counted.
  app.use((req, res, next) => (isWidgetFile(req.path) ? widgetFiles(req, res, next) : next()));
  app.use(noStore);
  app.use(deferBodyErrors(express.json({ limit: BODY_LIMIT, strict: true })));
  app.use(deferBodyErrors(express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 50 })));
  app.use(clockScopePerRequest);
  app.use(dispatchOperations(ctx, operations));
  for (const pages of modules) app.use(pages);
  app.use(unknownRoute);
  const handleError: ErrorRequestHandler = (error, req, res, next) => {
    if (res.headersSent) return next(error);
    send(res, errorAnswer(ctx, req, error));
  };
  app.use(handleError);
  return app;
};
