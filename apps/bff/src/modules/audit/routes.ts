import { listAuditEvents } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { cursorsOf } from '../../http/cursor.ts';
import { bindRoute } from '../../http/route.ts';
import { chainSpooledEntries } from './chainer.ts';
import { listClientAuditEvents } from './list-repo.ts';
import { toAuditEvent } from './present.ts';

export const auditRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, listAuditEvents, async ({ query, caller }) => {
    // Reads answered a moment ago may still be in the spool: chain them first, so the list misses nothing answered.
    await chainSpooledEntries(ctx);
    const page = await listClientAuditEvents(ctx.db, caller.clientId, query, cursorsOf(ctx));
    return { data: page.items.map(toAuditEvent), pagination: page.pagination };
  });
  return router;
};
