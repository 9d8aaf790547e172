import type { AppContext } from './context.ts';
import type { PathResourceChecks } from './core/path-resources.ts';
import { getClock } from './modules/clocks/service.ts';
import { getCatalogueOffer, getOfferClick } from './modules/offers/service.ts';
import { requireUser } from './modules/users/service.ts';
import { getWebhook } from './modules/webhooks/service.ts';

/**
 * The path parameters that name a resource of the caller's, each with its owner's own lookup: the same `404` the
 * operation's handler answers, asked for before a `400` so a request about something the caller may not see learns
 * nothing from its body (http/route.ts). A parameter without a check (an alert, a delivery) is looked up under
 * one with a check first (its user, its subscription).
 */
export const pathResourceChecks = (ctx: AppContext): PathResourceChecks => ({
  userId: (caller, id) => requireUser(ctx, caller, id),
  webhookId: (caller, id) => getWebhook(ctx, caller, id),
  clockId: (caller, id) => getClock(ctx, caller, id),
  offerId: (caller, id) => getCatalogueOffer(ctx, caller, id),
  clickId: (caller, id) => getOfferClick(ctx, caller, id),
});
