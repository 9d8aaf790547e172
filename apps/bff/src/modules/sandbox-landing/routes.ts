import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { findOffer, isActive, SANDBOX_APPLY_PREFIX } from '../offers/service.ts';
import { LANDING_CSP, renderLandingPage, renderUnknownOfferPage } from './page.ts';

const sendPage = (res: Response, status: number, html: string) => {
  res.status(status);
  res.setHeader('Content-Security-Policy', LANDING_CSP);
  res.type('html').send(html);
};

/**
 * Sandbox only: where offers' `applicationUrl` leads (see `applicationUrlFor`). A page for people, not an
 * API route: no authentication (a customer's browser opens it), HTML answers, its own strict CSP. It names
 * the offer only; who clicked stays out of the address. Production does not mount it, so there it is the API's 404.
 */
export const sandboxLandingRoutes = (ctx: AppContext): ModuleRoutes => {
  if (ctx.config.APP_ENV !== 'sandbox') return { operations: [] };
  const router = Router();
  router.get(`${SANDBOX_APPLY_PREFIX}:offerId`, (req: Request, res: Response) => {
    const offerId = String(req.params.offerId);
    const now = ctx.clock.now();
    const offer = findOffer(offerId, now);
    if (!offer) return sendPage(res, 404, renderUnknownOfferPage());
    sendPage(res, 200, renderLandingPage({ offer, expired: !isActive(offer, now), apiUrl: publicBaseUrl(ctx.config) }));
  });
  return { operations: [], pages: router };
};
