import { getClientCredentials, rotateClientSecret as rotateClientSecretOp } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/api-error.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { realNow } from '../../lib/clock.ts';
import { actorOf } from '../audit/service.ts';
import { findClient } from './repo.ts';
import { clientCredentials, rotateClientSecret } from './service.ts';

/** The bank's own credentials: their state, and a rotation with the overlap it chooses. */
export const credentialsRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, getClientCredentials, async ({ caller }) => {
      // From the database, not the token's cached client: a rotation a moment ago shows at once.
      const client = await findClient(ctx.db, caller.clientId);
      if (!client) throw notFound('Client');
      return { data: clientCredentials(client, realNow(ctx.clock)) };
    }),
    bindRoute(ctx, rotateClientSecretOp, async ({ req, body, caller }) => {
      const { principal } = caller;
      const rotation = await rotateClientSecret(ctx.db, ctx.clock, caller.clientId, {
        overlapSeconds: body.overlapSeconds,
        actor: actorOf(principal),
        requestId: req.requestId,
        keepConsoleSession: principal.kind === 'access' ? principal.staff?.sessionHash : undefined,
        audit: ctx.audit,
      });
      return {
        data: {
          clientId: caller.clientId,
          secret: rotation.secret,
          secretCreatedAt: rotation.secretCreatedAt.toISOString(),
          previousSecretExpiresAt: rotation.previousSecretExpiresAt.toISOString(),
        },
      };
    }),
  ],
});
