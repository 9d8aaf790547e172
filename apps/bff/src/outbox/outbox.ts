import type { TEventType } from '@credit/contract';
import type { Queryable } from '../db/db.ts';
import { isStatementBatch } from '../db/statement-batch.ts';
import type { IdGenerator } from '../lib/ids.ts';

export interface OutboxEvent {
  id: string;
  clientId: string;
  type: TEventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** NOTIFY channel raised by every committed event. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * Writes an event in the caller's transaction (the outbox): it commits with the change it
 * describes or not at all. Delivery reads the table later.
 */
export const recordEvent = async (tx: Queryable, ids: IdGenerator, event: Omit<OutboxEvent, 'id'>): Promise<OutboxEvent> => {
  const stored = { ...event, id: ids.id('evt') };
  const params = [stored.id, stored.clientId, stored.type, JSON.stringify(stored.data), stored.createdAt];
  // Wakes the webhook workers when this transaction commits (polling remains the fallback). The first event of a
  // transaction raises the NOTIFY in the same statement as its insert; later ones need none (PostgreSQL folds equal
  // notifications of one transaction into one).
  if (isStatementBatch(tx)) {
    // One statement for the whole batch: its final select raises the NOTIFY once it commits.
    await tx.query(`${INSERT_EVENT} values ($1, $2, $3, $4::jsonb, $5)`, params);
    tx.notifyOnCommit(OUTBOX_CHANNEL);
    return stored;
  }
  if (notified.has(tx)) {
    await tx.query(`${INSERT_EVENT} values ($1, $2, $3, $4::jsonb, $5)`, params);
  } else {
    await tx.query(
      `with added as (${INSERT_EVENT} values ($1, $2, $3, $4::jsonb, $5) returning 1)
       select pg_notify('${OUTBOX_CHANNEL}', '') from added`,
      params,
    );
    if (!('transaction' in tx)) notified.add(tx);
  }
  return stored;
};

const INSERT_EVENT = 'insert into outbox_events (id, client_id, type, data, created_at)';

/** Transactions that already raised the outbox notification (a Db, which is no one transaction, is never added). */
const notified = new WeakSet<Queryable>();

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
