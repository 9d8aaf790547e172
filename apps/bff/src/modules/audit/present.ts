import type { TAuditEvent } from '@credit/contract';
import { type AuditEventRow, toChainedEntry } from './chain-repo.ts';

/** An entry as the API and the export show it. */
export const toAuditEvent = (row: AuditEventRow): TAuditEvent => {
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
