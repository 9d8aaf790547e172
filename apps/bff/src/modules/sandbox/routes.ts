import { sandboxRefreshScore } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import { refreshScore } from '../credit/service.ts';

/** `/v1/sandbox/*`: admin scope, sandbox only (bindRoute answers 404 in production). Each helper calls its resource's service. */
export const sandboxRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, sandboxRefreshScore, async ({ params, body, caller }) => ({
    data: await refreshScore(ctx, caller, params.userId, body.score),
  }));
  // sandboxCreateAlert → alerts service (alerts module)
  // sandboxConvertOffer → offers service (offers module)
  // sandboxGetVerificationAnswers → verification service (verification module)
  return router;
};
