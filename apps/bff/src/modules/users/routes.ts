import {
  deleteUser,
  enrollUser,
  enrollUsersBatch,
  getMe,
  getUser,
  listUsers,
  ZEnrollmentInput,
  ZSelfEnrollmentInput,
} from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { bindRoute } from '../../http/route.ts';
import { bindConsentRoutes, originOf } from './consent-routes.ts';
import * as users from './service.ts';

export const userRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(
    router,
    ctx,
    enrollUser,
    async ({ body, caller, req }) => ({ data: await users.enrollUser(ctx, caller, body, originOf(req)) }),
    {
      bodySchema: (principal) => (principal.kind === 'user' ? ZSelfEnrollmentInput : ZEnrollmentInput),
    },
  );
  bindRoute(router, ctx, enrollUsersBatch, async ({ body, caller, req }) => {
    const result = await users.enrollBatch(ctx, caller, body.users, originOf(req));
    const counts = { total: body.users.length, successful: result.successful.length, failed: result.failed.length };
    return { data: result, meta: counts };
  });
  bindRoute(router, ctx, listUsers, async ({ query, caller }) => {
    const page = await users.listUsers(ctx, caller, query);
    return { data: page.items, pagination: page.pagination };
  });
  bindRoute(router, ctx, getMe, async ({ caller }) => ({ data: await users.getMe(ctx, caller) }));
  bindRoute(router, ctx, getUser, async ({ params, caller }) => ({ data: await users.getUser(ctx, caller, params.userId) }));
  bindRoute(router, ctx, deleteUser, async ({ params, caller }) => ({
    data: await users.deleteUser(ctx, caller, params.userId),
  }));
  bindConsentRoutes(router, ctx);
  return router;
};
