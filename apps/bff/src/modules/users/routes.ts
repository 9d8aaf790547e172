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
import type { AppContext } from '../../context.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { enrolmentAgeProblems } from './age.ts';
import { bindConsentRoutes, originOf } from './consent-routes.ts';
import * as users from './service.ts';

export const userRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(
      ctx,
      enrollUser,
      async ({ ctx, body, caller, req }) => ({ data: await users.enrollUser(ctx, caller, body, originOf(req)) }),
      {
        bodySchema: (principal) => (principal.kind === 'user' ? ZSelfEnrollmentInput : ZEnrollmentInput),
        bodyRules: enrolmentAgeProblems,
      },
    ),
    bindRoute(ctx, enrollUsersBatch, async ({ ctx, body, caller, req }) => {
      const result = await users.enrollBatch(ctx, caller, body.users, originOf(req));
      const counts = { total: body.users.length, successful: result.successful.length, failed: result.failed.length };
      return { data: result, meta: counts };
    }),
    bindRoute(ctx, listUsers, async ({ ctx, query, caller }) => {
      const page = await users.listUsers(ctx, caller, query);
      return { data: page.items, pagination: page.pagination };
    }),
    bindRoute(ctx, getMe, async ({ ctx, caller }) => ({ data: await users.getMe(ctx, caller) })),
    bindRoute(ctx, getUser, async ({ ctx, params, caller }) => ({ data: await users.getUser(ctx, caller, params.userId) })),
    bindRoute(ctx, deleteUser, async ({ ctx, params, caller }) => ({
      data: await users.deleteUser(ctx, caller, params.userId),
    })),
    ...bindConsentRoutes(ctx),
  ],
});
