import { getVerificationQuestions, submitVerificationAnswers } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import * as verification from './service.ts';

export const verificationRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, getVerificationQuestions, async ({ params, caller }) => ({
    data: await verification.startVerificationSession(ctx, caller, params.userId),
  }));
  bindRoute(router, ctx, submitVerificationAnswers, async ({ params, body, caller }) => ({
    data: await verification.submitVerificationAnswers(ctx, caller, params.userId, body),
  }));
  return router;
};
