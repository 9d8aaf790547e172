import type { TAuditActorKind, TAuditEventType } from '@credit/contract';

/** Who did it: the partner's access token (`client`), a user token, the widget session of a user, or our own job. */
export interface AuditActor {
  kind: TAuditActorKind;
  /** The client id, the user id of a user token or widget session, or the job's name (`monitoring`). */
  id: string;
}

/** What a module hands to `recordAudit`: ids only, never personal data. */
export interface AuditEventInput {
  type: TAuditEventType;
  clientId: string;
  /** Who; by default the current API request's caller, or outside a request the `worker` job. */
  actor?: AuditActor;
  /** The user the entry is about (`usr_…`). */
  userId?: string | null;
  /** The API request's id (`req.requestId`), when a request caused it. */
  requestId?: string | null;
  /** Ids of what was touched, e.g. `{ operationId: 'getCreditScore' }` or `{ webhookId }`. Strings only. */
  subject?: Record<string, string>;
}

/** An entry before it joins its client's chain: id and time fixed, sequence and hashes not yet. */
export interface PendingEntry {
  id: string;
  type: TAuditEventType;
  clientId: string;
  actorKind: TAuditActorKind;
  actorId: string;
  userId: string | null;
  requestId: string | null;
  subject: Record<string, string>;
  occurredAt: Date;
}

/** An entry as stored: its place in the chain and the hashes that link it. */
export interface ChainedEntry extends PendingEntry {
  seq: number;
  prevHash: string;
  hash: string;
}
