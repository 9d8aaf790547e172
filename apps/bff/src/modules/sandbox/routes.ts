import { sandboxConvertOffer, sandboxCreateAlert, sandboxGetVerificationAnswers, sandboxRefreshScore } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { createSandboxAlert, recordScoreChangeAlert } from '../alerts/service.ts';
import { refreshScore } from '../credit/service.ts';
import { convertOffer } from '../offers/service.ts';
import { getSandboxAnswers } from '../verification/service.ts';

/** `/v1/sandbox/*`: admin scope, sandbox only (bindRoute answers 404 in production). Each helper calls its resource's service. */
export const sandboxRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, sandboxRefreshScore, async ({ ctx, params, body, caller }) => ({
      data: await refreshScore(ctx, caller, params.userId, body.score, recordScoreChangeAlert(ctx)),
    })),
    bindRoute(ctx, sandboxCreateAlert, async ({ ctx, params, body, caller }) => ({
      data: await createSandboxAlert(ctx, caller, params.userId, body.type),
    })),
    bindRoute(ctx, sandboxConvertOffer, async ({ ctx, params, caller }) => ({
      data: await convertOffer(ctx, caller, params.userId, params.offerId),
    })),
    bindRoute(ctx, sandboxGetVerificationAnswers, async ({ ctx, params, query, caller }) => ({
      data: await getSandboxAnswers(ctx, caller, params.userId, query.sessionId),
    })),
  ],
});
