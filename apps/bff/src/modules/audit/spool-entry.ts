import type { TAuditActorKind, TAuditEventType } from '@credit/contract';
import type { PendingEntry } from './entry.ts';

/**
 * A read's entry as the request path spools it: one flat array, serialised with its batch by one JSON.stringify. No id,
 * no hash, no sequence yet: the chainer assigns them (chainer.ts). Positions, never renamed once rows exist:
 * [type, clientId, actorKind, actorId, userId, requestId, occurredAt (ms since the epoch), operationId, alertId].
 */
export type SpooledEntry = [
  type: TAuditEventType,
  clientId: string,
  actorKind: TAuditActorKind,
  actorId: string,
  userId: string | null,
  requestId: string | null,
  occurredAtMs: number,
  operationId: string,
  alertId: string | null,
];

/** A spooled entry as it joins its client's chain: its id is given now, its time is the one the request recorded. */
export const toPendingEntry = (e: SpooledEntry, id: string): PendingEntry => {
  const subject: Record<string, string> = { operationId: e[7] };
  if (e[8] !== null) subject.alertId = e[8];
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
