import { type Request, type Response, Router } from 'express';
import type { AppContext } from '../../context.ts';
import type { ModuleRoutes } from '../../http/route.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { findLandingOffer, SANDBOX_APPLY_PREFIX, statusOf } from '../offers/service.ts';
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
  router.get(`${SANDBOX_APPLY_PREFIX}:offerId`, async (req: Request, res: Response) => {
    const offerId = String(req.params.offerId);
    // Only what can be an offer id is looked up (a NUL byte, say, is no text the database stores).
    if (!/^off_[A-Za-z0-9]{1,64}$/.test(offerId)) return sendPage(res, 404, renderUnknownOfferPage());
    const clickId =
      typeof req.query.clickId === 'string' && /^clk_[A-Za-z0-9]{1,64}$/.test(req.query.clickId) ? req.query.clickId : undefined;
    const offer = await findLandingOffer(ctx, offerId, clickId);
    if (!offer) return sendPage(res, 404, renderUnknownOfferPage());
    const status = statusOf(offer, ctx.clock.now());
    sendPage(res, 200, renderLandingPage({ offer, clickId, ended: status !== 'active', apiUrl: publicBaseUrl(ctx.config) }));
  });
  return { operations: [], pages: router };
};
