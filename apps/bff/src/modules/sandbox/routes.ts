import { sandboxConvertOffer, sandboxCreateAlert, sandboxGetVerificationAnswers, sandboxRefreshScore } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import { createSandboxAlert, recordScoreChangeAlert } from '../alerts/service.ts';
import { refreshScore } from '../credit/service.ts';
import { convertOffer } from '../offers/service.ts';
import { getSandboxAnswers } from '../verification/service.ts';

/** `/v1/sandbox/*`: admin scope, sandbox only (bindRoute answers 404 in production). Each helper calls its resource's service. */
export const sandboxRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, sandboxRefreshScore, async ({ params, body, caller }) => ({
    data: await refreshScore(ctx, caller, params.userId, body.score, recordScoreChangeAlert(ctx)),
  }));
  bindRoute(router, ctx, sandboxCreateAlert, async ({ params, body, caller }) => ({
    data: await createSandboxAlert(ctx, caller, params.userId, body.type),
  }));
  bindRoute(router, ctx, sandboxConvertOffer, async ({ params, caller }) => ({
    data: await convertOffer(ctx, caller, params.userId, params.offerId),
  }));
  bindRoute(router, ctx, sandboxGetVerificationAnswers, async ({ params, query, caller }) => ({
    data: await getSandboxAnswers(ctx, caller, params.userId, query.sessionId),
  }));
  return router;
};
