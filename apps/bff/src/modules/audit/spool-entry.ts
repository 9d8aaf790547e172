import type { TAuditActorKind, TAuditEventType } from '@credit/contract';
import type { PendingEntry } from './entry.ts';

/**
 * An entry as it waits in the spool: one flat array, serialised with its batch by one JSON.stringify. No id, no hash,
 * no sequence yet: the chainer assigns them (chainer.ts). Positions, never renamed once rows exist:
 * [type, clientId, actorKind, actorId, userId, requestId, occurredAt (ms since the epoch), operationId, alertId,
 * subject]. A read (the dispatcher's hook) names its operation and alert; a write's own entry (recordAudit in the
 * write's transaction) carries its subject whole in the tenth position, and null in the eighth and ninth.
 */
export type SpooledEntry = [
  type: TAuditEventType,
  clientId: string,
  actorKind: TAuditActorKind,
  actorId: string,
  userId: string | null,
  requestId: string | null,
  occurredAtMs: number,
  operationId: string | null,
  alertId: string | null,
  subject?: Record<string, string>,
];

/** A spooled entry as it joins its client's chain: its id is given now, its time is the one the request recorded. */
export const toPendingEntry = (e: SpooledEntry, id: string): PendingEntry => {
  let subject = e[9];
  if (!subject) {
    subject = {};
    if (e[7] !== null) subject.operationId = e[7];
    if (e[8] !== null) subject.alertId = e[8];
  }
  return {
    id,
    type: e[0],
    clientId: e[1],
    actorKind: e[2],
    actorId: e[3],
    userId: e[4],
    requestId: e[5],
    subject,
    occurredAt: new Date(e[6]),
  };
};

/** A write's own entry, spooled in the write's transaction: its subject whole. */
export const toSpooledEntry = (e: Omit<PendingEntry, 'id'>): SpooledEntry => [
  e.type,
  e.clientId,
  e.actorKind,
  e.actorId,
  e.userId,
  e.requestId,
  e.occurredAt.getTime(),
  null,
  null,
  e.subject,
];
