import type { Queryable } from '../db/db.ts';
import { notify } from '../db/notify.ts';
import { isStatementBatch } from '../db/statement-batch.ts';
import { isWriteBehind } from '../db/write-behind.ts';
import type { IdGenerator } from '../lib/ids.ts';
import { insertEvent, type OutboxEvent } from './outbox-repo.ts';

export { listEventsForClient, type OutboxEvent } from './outbox-repo.ts';

/** The body webhooks deliver and `GET /v1/events` answers: one shape, so a partner can compare them field by field. */
export const eventEnvelope = (event: Pick<OutboxEvent, 'id' | 'type' | 'createdAt' | 'data'>) => ({
  id: event.id,
  type: event.type,
  createdAt: new Date(event.createdAt).toISOString(),
  data: withFieldsAddedSince(event),
});

/** Fields a type gained after some of its events were stored, with the value they stand for in those events. */
const withFieldsAddedSince = ({ type, data }: Pick<OutboxEvent, 'type' | 'data'>) => {
  if (type === 'sandbox.clock.ready' && !('pausedUsers' in data)) return { ...data, pausedUsers: [] };
  // Clicks made before offer versions; conversions before stages were completed applications.
  if (type === 'offer.clicked' && !('offerVersion' in data)) return { ...data, offerVersion: null };
  if (type === 'offer.converted' && !('stage' in data)) return { ...data, offerVersion: null, stage: 'funded', amount: null };
  return data;
};

/** NOTIFY channel raised by every committed event. */
export const OUTBOX_CHANNEL = 'outbox_events';

/**
 * Writes an event in the caller's transaction (the outbox): it commits with the change it
 * describes or not at all. Delivery reads the table later.
 */
export const recordEvent = async (tx: Queryable, ids: IdGenerator, event: Omit<OutboxEvent, 'id'>): Promise<OutboxEvent> => {
  const stored = { ...event, id: ids.id('evt') };
  // Wakes the webhook workers when this transaction commits (polling remains the fallback). The first event of a
  // transaction raises the NOTIFY (with its insert, or held with a group's writes); later ones need none (PostgreSQL
  // folds equal notifications of one transaction into one).
  if (isStatementBatch(tx)) {
    // One statement for the whole batch: its final select raises the NOTIFY once it commits.
    await insertEvent(tx, stored);
    tx.notifyOnCommit(OUTBOX_CHANNEL);
    return stored;
  }
  if (isWriteBehind(tx)) {
    // Both wait with the group's other writes: the insert joins the group's one insert of events, and the NOTIFY,
    // naming no table, ends no merging and needs no round trip of its own.
    if (!notified.has(tx)) {
      await notify(tx, OUTBOX_CHANNEL, '');
      notified.add(tx);
    }
    await insertEvent(tx, stored);
    return stored;
  }
  if (notified.has(tx)) {
    await insertEvent(tx, stored);
  } else {
    await insertEvent(tx, stored, OUTBOX_CHANNEL);
    if (!('transaction' in tx)) notified.add(tx);
  }
  return stored;
};

/** Transactions that already raised the outbox notification (a Db, which is no one transaction, is never added). */
const notified = new WeakSet<Queryable>();
