import { listAuditEvents, type TAuditEvent } from '@credit/contract';
import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { cursorsOf } from '../../http/cursor.ts';
import { bindRoute } from '../../http/route.ts';
import { type AuditEventRow, toChainedEntry } from './chain-repo.ts';
import { listClientAuditEvents } from './list-repo.ts';

const toAuditEvent = (row: AuditEventRow): TAuditEvent => {
  const entry = toChainedEntry(row);
  return {
    eventId: entry.id,
    sequence: entry.seq,
    type: entry.type,
    actor: { kind: entry.actorKind, id: entry.actorId },
    userId: entry.userId,
    requestId: entry.requestId,
    subject: entry.subject,
    occurredAt: entry.occurredAt.toISOString(),
    previousHash: entry.prevHash,
    hash: entry.hash,
  };
};

export const auditRoutes = (ctx: AppContext): Router => {
  const router = Router();
  bindRoute(router, ctx, listAuditEvents, async ({ query, caller }) => {
    const page = await listClientAuditEvents(ctx.db, caller.clientId, query, cursorsOf(ctx));
    return { data: page.items.map(toAuditEvent), pagination: page.pagination };
  });
  return router;
};
