import { listAuditEvents } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { cursorsOf } from '../../http/cursor.ts';
import { bindRoute } from '../../http/route.ts';
import { listClientAuditEvents } from './list-repo.ts';
import { toAuditEvent } from './present.ts';

export const auditRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, listAuditEvents, async ({ query, caller }) => {
    const page = await listClientAuditEvents(ctx.db, caller.clientId, query, cursorsOf(ctx));
    return { data: page.items.map(toAuditEvent), pagination: page.pagination };
  });
  return router;
};
