import { listAuditEvents, verifyAuditTrail } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { cursorsOf } from '../../core/cursor.ts';
import { bindRoute, type ModuleRoutes } from '../../http/route.ts';
import { chainSpooledEntries } from './chainer.ts';
import { listClientAuditEvents } from './list-repo.ts';
import { toAuditEvent } from './present.ts';
import { verifyTrail } from './verify.ts';

export const auditRoutes = (ctx: AppContext): ModuleRoutes => ({
  operations: [
    bindRoute(ctx, listAuditEvents, async ({ ctx, query, caller }) => {
      // Reads answered a moment ago may still be in the spool: chain them first, so the list misses nothing answered.
      await chainSpooledEntries(ctx);
      const page = await listClientAuditEvents(ctx.db, caller.clientId, query, cursorsOf(ctx));
      return { data: page.items.map(toAuditEvent), pagination: page.pagination };
    }),
    bindRoute(ctx, verifyAuditTrail, async ({ ctx, caller, query }) => {
      // As for the list, what was answered before this request is checked too: verifyTrail chains the spool first.
      return { data: await verifyTrail(ctx, caller.clientId, query.from ?? 'checkpoint') };
    }),
  ],
});
