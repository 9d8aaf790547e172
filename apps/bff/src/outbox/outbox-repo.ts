import type { TEventType } from '@credit/contract';
import type { Queryable } from '../db/db.ts';

export interface OutboxEvent {
  id: string;
  clientId: string;
  type: TEventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * SQL: the event (`alias`, a row of outbox_events) is not about a purged user. A purged user's events had their
 * personal fields erased, so they are no longer the envelope that was delivered: neither listed nor sent again.
 */
export const notOfPurgedUser = (alias: string) =>
  `not exists (select 1 from users u where u.id = ${alias}.data->>'userId' and u.purged_at is not null)`;

const INSERT_EVENT = 'insert into outbox_events (id, client_id, type, data, created_at)';

/** Inserts `event`; with `notifyChannel`, the same statement raises that NOTIFY (heard once the transaction commits). */
export const insertEvent = async (tx: Queryable, event: OutboxEvent, notifyChannel?: string): Promise<void> => {
  const params = [event.id, event.clientId, event.type, JSON.stringify(event.data), event.createdAt];
  if (!notifyChannel) {
    await tx.query(`${INSERT_EVENT} values ($1, $2, $3, $4::jsonb, $5)`, params);
    return;
  }
  await tx.query(
    `with added as (${INSERT_EVENT} values ($1, $2, $3, $4::jsonb, $5) returning 1)
     select pg_notify('${notifyChannel}', '') from added`,
    params,
  );
};

export const listEventsForClient = async (db: Queryable, clientId: string): Promise<OutboxEvent[]> => {
  const { rows } = await db.query<{
    id: string;
    client_id: string;
    type: TEventType;
    data: Record<string, unknown>;
    created_at: Date;
  }>('select id, client_id, type, data, created_at from outbox_events where client_id = $1 order by seq', [clientId]);
  return rows.map((r) => ({ id: r.id, clientId: r.client_id, type: r.type, data: r.data, createdAt: new Date(r.created_at) }));
};
