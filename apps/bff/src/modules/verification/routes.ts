import { getVerificationQuestions, submitVerificationAnswers } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import * as verification from './service.ts';

export const verificationRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, getVerificationQuestions, async ({ ctx, params, caller }) => ({
      data: await verification.startVerificationSession(ctx, caller, params.userId),
    })),
    bindRoute(ctx, submitVerificationAnswers, async ({ ctx, params, body, caller }) => ({
      data: await verification.submitVerificationAnswers(ctx, caller, params.userId, body),
    })),
  ],
});
