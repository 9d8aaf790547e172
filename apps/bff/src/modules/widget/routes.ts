import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createWidgetSession as createSessionOp, getWidgetSession as getSessionOp } from '@credit/contract';
import express, { type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/api-error.ts';
import { bindRoute } from '../../http/route.ts';
import { createWidgetSession, frameAncestorsFor, getWidgetSessionStatus } from './service.ts';
import { EMBED_SCRIPT_FILE, isBuilt, WIDGET_DIST_DIR } from './static-files.ts';

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

const serveLoader = async (_req: Request, res: Response) => {
  if (!isBuilt(EMBED_SCRIPT_FILE)) throw new ApiError('SERVICE_UNAVAILABLE', NOT_BUILT);
  // Loaded by <script> from partners' pages, so it must be readable cross-origin; short cache so fixes reach them.
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  res.setHeader('Cache-Control', 'public, max-age=300');
  res.type('text/javascript').send(await readFile(EMBED_SCRIPT_FILE, 'utf8'));
};

export const widgetRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, createSessionOp, async ({ req, body, caller }) => {
    const { session, setCookie } = await createWidgetSession(ctx, caller, req.presentedToken, body.parentOrigin);
    return { data: session, headers: { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } };
  });
  bindRoute(router, ctx, getSessionOp, async ({ caller }) => ({ data: await getWidgetSessionStatus(ctx, caller) }));
  router.get(['/widget', '/widget/'], serveFrame(ctx));
  return router;
};

/** Static files need neither a principal nor a database: mounted before authentication and rate limiting. */
export const widgetStaticRoutes = (): Router => {
  const router = Router();
  // Hashed file names: cache for a year.
  router.use(
    '/widget/assets',
    express.static(path.join(WIDGET_DIST_DIR, 'assets'), { immutable: true, maxAge: '365d', index: false }),
  );
  router.get('/embed.js', serveLoader);
  return router;
};
