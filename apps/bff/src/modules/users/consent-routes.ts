import { getConsent, grantConsent, listConsentHistory, withdrawConsent } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { HttpRequest } from '../../http/api-request.ts';
import type { ContractRoute } from '../../http/operation-table.ts';
import { bindRoute } from '../../http/route.ts';
import * as consent from './consent.ts';
import type { RequestOrigin } from './consent-record.ts';

/** Where a request came from: recorded with a consent the widget collects, and in the audit trail. */
export const originOf = (req: HttpRequest): RequestOrigin => ({
  ip: req.ip,
  userAgent: req.get('user-agent')?.slice(0, 512),
  requestId: req.requestId,
});

/** GET/POST /v1/users/{userId}/consent, GET …/consent/history and POST …/consent/withdraw (docs/partner/consent.md). */
export const bindConsentRoutes = (ctx: AppContext): ContractRoute[] => [
  bindRoute(ctx, getConsent, async ({ ctx, params, caller }) => ({
    data: await consent.getConsent(ctx, caller, params.userId),
  })),
  bindRoute(ctx, listConsentHistory, async ({ ctx, params, query, caller }) => {
    const page = await consent.listConsentHistory(ctx, caller, params.userId, query);
    return { data: page.items, pagination: page.pagination };
  }),
  bindRoute(ctx, grantConsent, async ({ ctx, params, body, caller, req }) => ({
    data: await consent.grantConsent(ctx, caller, params.userId, body, originOf(req)),
  })),
  bindRoute(ctx, withdrawConsent, async ({ ctx, params, caller, req }) => ({
    data: await consent.withdrawConsent(ctx, caller, params.userId, originOf(req)),
  })),
];
