import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { AppContext } from './context.ts';
import { accessLog } from './http/access-log.ts';
import { classifyBodyError } from './http/body-errors.ts';
import { errorResponse, toApiError } from './http/error-response.ts';
import { malformedPathError } from './http/malformed-path.ts';
import { operationTableOf } from './http/operation-table.ts';
import { resolvePrincipal } from './http/principal.ts';
import { countUnlimitedFailure, notFound, rateLimitedPage } from './http/rate-limit.ts';
import { requestId } from './http/request-id.ts';
import { requestLogger } from './http/request-logger.ts';
import { send } from './http/route.ts';
import { securityHeaders } from './http/security-headers.ts';
import { alertRoutes } from './modules/alerts/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { creditRoutes } from './modules/credit/routes.ts';
import { docsRoutes } from './modules/docs/routes.ts';
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
 * An API path with a trailing slash (`/v1/users/`) is not the resource without it: Express's routers would
 * match it anyway, so `GET /v1/users/{userId}` with an empty id answered the list. Like any unknown route,
 * it is a 404 before authentication.
 */
const strictApiPaths =
  (unknownRoute: RequestHandler): RequestHandler =>
  (req, res, next) =>
    /^\/(v1|oauth)(\/.*)?\/$/.test(req.path) ? unknownRoute(req, res, next) : next();

/** Middlewares run one after another as one, as `app.use` would run them in turn; an error skips the rest. */
const inSequence =
  (handlers: RequestHandler[]): RequestHandler =>
  (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) {
        next(error);
        return;
      }
      const handler = handlers[index++];
      if (!handler) {
        next();
        return;
      }
      // As Express does: a middleware's throw or async rejection goes to the error handler (a step called back
      // from a body parser's stream is outside Express's own try/catch, so it must be caught here).
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };

export const createApp = (ctx: AppContext): Express => {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxySetting(ctx.config.TRUST_PROXY));
  app.set('query parser', 'simple');
  app.set('etag', false);

  // Rate limiting happens where a route matched (bindRoute, or the few routes outside the API reference), in the
  // bucket of that operation; an unknown route is counted by `unknownRoute`.
  const unknownRoute = notFound(ctx);
  const limitedPage = rateLimitedPage(ctx);
  const widgetFiles = widgetStaticRoutes();
  // Every request passes these, in this order, as one layer: the router's walk over a dozen layers cost more than
  // most of them. The last step dispatches contract operations from one table (http/operation-table.ts, filled by
  // bindRoute in the module routes below); what it does not match goes on to those Express routes.
  app.use(
    inSequence([
      requestId,
      accessLog(ctx.logger),
      securityHeaders(),
      (req, res, next) => (isWidgetFile(req.path) ? widgetFiles(req, res, next) : next()),
      noStore,
      deferBodyErrors(express.json({ limit: BODY_LIMIT, strict: true })),
      deferBodyErrors(express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 50 })),
      resolvePrincipal(ctx),
      strictApiPaths(unknownRoute),
      // Express answers OPTIONS itself (200 with Allow) for any known path; the request still counts.
      (req, res, next) => (req.method === 'OPTIONS' ? limitedPage(req, res, next) : next()),
      operationTableOf(ctx).dispatcher(),
    ]),
  );
  app.use(docsRoutes(ctx));
  app.use(authRoutes(ctx));
  app.use(userRoutes(ctx));
  app.use(creditRoutes(ctx));
  app.use(offerRoutes(ctx));
  app.use(alertRoutes(ctx));
  app.use(verificationRoutes(ctx));
  app.use(sandboxRoutes(ctx));
  app.use(sandboxLandingRoutes(ctx));
  app.use(webhookRoutes(ctx));
  app.use(widgetRoutes(ctx));

  app.use(unknownRoute);
  const handleError: ErrorRequestHandler = async (error, req, res, next) => {
    if (res.headersSent) return next(error);
    await countUnlimitedFailure(ctx, req, res);
    const apiError = malformedPathError(error, req.path) ?? toApiError(error, requestLogger(ctx, req));
    send(res, errorResponse(apiError, req.requestId ?? 'req_unknown', ctx.clock));
  };
  app.use(handleError);
  return app;
};
