import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createWidgetSession as createSessionOp, getWidgetSession as getSessionOp } from '@credit/contract';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import { sendBuiltFile } from '../../http/built-files.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { widgetSessionCookie } from '../../http/widget-session-cookie.ts';
import { createWidgetSession, frameAncestorsFor, getWidgetSessionStatus } from './service.ts';
import { assetFileFor, EMBED_SCRIPT_FILE, IMMUTABLE, isBuilt, WIDGET_ASSETS_DIR, WIDGET_DIST_DIR } from './static-files.ts';

const NOT_BUILT = 'The widget is not built on this instance: run `pnpm build` (pnpm start does it for you).';

/** The frame's own policy: same-origin everything, inline styles for the chart library, framing decided per request. */
const frameCsp = (frameAncestors: string) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

const serveFrame = (ctx: AppContext) => async (req: Request, res: Response) => {
  const indexFile = path.join(WIDGET_DIST_DIR, 'index.html');
  if (!isBuilt(indexFile)) throw new ApiError('SERVICE_UNAVAILABLE', NOT_BUILT);
  const html = await readFile(indexFile, 'utf8');
  res.setHeader('Content-Security-Policy', frameCsp(await frameAncestorsFor(ctx, req.query.parent)));
  // frame-ancestors decides framing; X-Frame-Options would contradict it in older browsers.
  res.removeHeader('X-Frame-Options');
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(html);
};

const serveLoader = async (req: Request, res: Response, next: NextFunction) => {
  if (!isBuilt(EMBED_SCRIPT_FILE)) throw new ApiError('SERVICE_UNAVAILABLE', NOT_BUILT);
  // Loaded by <script> from partners' pages, so it must be readable cross-origin; its name has no hash,
  // so a short cache lets fixes reach them.
  await sendBuiltFile(req, res, next, EMBED_SCRIPT_FILE, { cacheControl: 'public, max-age=300', crossOrigin: true });
};

/** `/widget/assets/<name>`: matched on the raw path (see `assetFileFor`), so a bad name is a 404, never a 500. */
const serveAsset = (assetsDir: string) => async (req: Request, res: Response, next: NextFunction) => {
  const file = assetFileFor(req.path.slice(1), assetsDir);
  if (!file) return next();
  await sendBuiltFile(req, res, next, file, { cacheControl: IMMUTABLE });
};

/** The widget session operations, and the frame (`/widget`), a page outside the contract. */
export const widgetRoutes = (ctx: AppContext): ModuleRoutes => {
  const operations = [
    bindRoute(ctx, createSessionOp, async ({ ctx, req, body, caller }) => {
      const { session, sealed, expiresAt } = await createWidgetSession(
        ctx,
        caller,
        req.presentedToken,
        body.parentOrigin,
        body.locale,
      );
      return { data: session, headers: { 'Set-Cookie': widgetSessionCookie(sealed, expiresAt), 'Cache-Control': 'no-store' } };
    }),
    bindRoute(ctx, getSessionOp, async ({ ctx, caller }) => ({ data: await getWidgetSessionStatus(ctx, caller) })),
  ];
  const pages = Router();
  pages.get(['/widget', '/widget/'], serveFrame(ctx));
  return { operations, pages };
};

/** Whether a path is one widgetStaticRoutes serves (the app skips that router for every other request). */
export const isWidgetFile = (path: string): boolean => path.startsWith('/widget/assets/') || path === '/embed.js';

/**
 * Static files need neither a principal nor a database: mounted before authentication and rate limiting.
 * `assetsDir` is the widget build's assets/ folder; a test serves a build of its own.
 */
export const widgetStaticRoutes = (assetsDir = WIDGET_ASSETS_DIR): Router => {
  const router = Router();
  const asset = serveAsset(assetsDir);
  // Hashed file names, served precompressed (built once by `pnpm build`), cached for a year.
  router.use('/widget/assets', (req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? asset(req, res, next) : next(),
  );
  router.get('/embed.js', serveLoader);
  return router;
};
