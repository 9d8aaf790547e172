import type { TEventType } from '@credit/contract';
import type { Queryable } from '../../db/db.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { EventToSend } from './envelope.ts';

/**
 * Copies committed outbox events into per-subscription delivery rows, in one transaction with the
 * marker that says they were copied. SKIP LOCKED lets several workers fan out different events at once;
 * a crash before commit leaves the events unmarked for the next worker.
 */
export const fanOutBatch = async (tx: Queryable, ids: IdGenerator, now: Date, limit: number): Promise<number> => {
  const { rows: events } = await tx.query<{ seq: string; id: string; client_id: string; type: TEventType }>(
    `select seq, id, client_id, type from outbox_events where dispatched_at is null
     order by seq limit $1 for update skip locked`,
    [limit],
  );
  if (events.length === 0) return 0;
  const clientIds = [...new Set(events.map((e) => e.client_id))];
  const { rows: hooks } = await tx.query<{ id: string; client_id: string; events: TEventType[] }>(
    `select id, client_id, events from webhooks where client_id = any($1::text[]) and status = 'active'`,
    [clientIds],
  );
  const pairs = events.flatMap((event) =>
    hooks.filter((h) => h.client_id === event.client_id && h.events.includes(event.type)).map((h) => ({ event, hook: h })),
  );
  if (pairs.length > 0) {
    await tx.query(
      `insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, next_attempt_at, created_at)
       select d.id, d.webhook_id, d.client_id, d.event_id, d.event_type, 'pending', $6, $6
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as d(id, webhook_id, client_id, event_id, event_type)
       on conflict (webhook_id, event_id) do nothing`,
      [
        pairs.map(() => ids.id('del')),
        pairs.map((p) => p.hook.id),
        pairs.map((p) => p.event.client_id),
        pairs.map((p) => p.event.id),
        pairs.map((p) => p.event.type),
        now,
      ],
    );
  }
  await tx.query('update outbox_events set dispatched_at = $2 where seq = any($1::bigint[])', [events.map((e) => e.seq), now]);
  return events.length;
};

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
}

/**
 * Leases due deliveries of active subscriptions to this worker. The lease (token + expiry) is what stops
 * two workers from making the same attempt at once; if this worker dies, the lease runs out and another
 * worker retries the attempt (at-least-once).
 */
export const claimDueDeliveries = async (
  db: Queryable,
  now: Date,
  leaseUntil: Date,
  leaseToken: string,
  limit: number,
): Promise<ClaimedDelivery[]> => {
  const { rows } = await db.query<ClaimedDelivery>(
    `update webhook_deliveries set lease_token = $3, lease_until = $2
     where id in (
       select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
       where d.state = 'pending' and d.next_attempt_at <= $1 and w.status = 'active'
         and (d.lease_until is null or d.lease_until < $1)
       order by d.next_attempt_at limit $4
       for update of d skip locked)
     returning id, webhook_id, event_id, attempts`,
    [now, leaseUntil, leaseToken, limit],
  );
  return rows;
};

export const loadEvents = async (db: Queryable, eventIds: string[]): Promise<Map<string, EventToSend>> => {
  const { rows } = await db.query<{ id: string; type: TEventType; data: Record<string, unknown>; created_at: Date }>(
    'select id, type, data, created_at from outbox_events where id = any($1::text[])',
    [eventIds],
  );
  return new Map(rows.map((r) => [r.id, { id: r.id, type: r.type, data: r.data, createdAt: new Date(r.created_at) }]));
};

/** Ends an attempt only if this worker still holds the lease; false means another worker took it over. */
export const settleDelivery = async (
  tx: Queryable,
  deliveryId: string,
  leaseToken: string,
  next: { state: 'succeeded' | 'failed' | 'pending'; nextAttemptAt: Date | null },
): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `update webhook_deliveries set state = $3, next_attempt_at = $4, attempts = attempts + 1, lease_token = null, lease_until = null
     where id = $1 and lease_token = $2`,
    [deliveryId, leaseToken, next.state, next.nextAttemptAt],
  );
  return rowCount > 0;
};

export const recordWebhookSuccess = async (tx: Queryable, webhookId: string): Promise<void> => {
  await tx.query('update webhooks set failure_count = 0 where id = $1 and failure_count <> 0', [webhookId]);
};

export const recordWebhookFailure = async (tx: Queryable, webhookId: string): Promise<void> => {
  await tx.query('update webhooks set failure_count = failure_count + 1 where id = $1', [webhookId]);
};

/** active → failed, once: only the transaction that flips the status queues the e-mail. */
export const markWebhookFailed = async (tx: Queryable, webhookId: string, at: Date): Promise<boolean> => {
  const { rowCount } = await tx.query(
    `update webhooks set status = 'failed', notice_pending = true, updated_at = $2 where id = $1 and status = 'active'`,
    [webhookId, at],
  );
  return rowCount > 0;
};

/** Re-activation: a fresh schedule for the deliveries still waiting. */
export const restartPendingDeliveries = async (tx: Queryable, webhookId: string, at: Date): Promise<void> => {
  await tx.query(`update webhook_deliveries set attempts = 0, next_attempt_at = $2 where webhook_id = $1 and state = 'pending'`, [
    webhookId,
    at,
  ]);
};

export interface NoticeClaim {
  id: string;
  client_id: string;
  url: string;
}

/** Leases one pending failure notice; a crash before `finishNotice` sends it again after the lease. */
export const claimNotice = async (db: Queryable, now: Date, leaseUntil: Date): Promise<NoticeClaim | undefined> => {
  const { rows } = await db.query<NoticeClaim>(
    `update webhooks set notice_lease_until = $2
     where id = (select id from webhooks where notice_pending and (notice_lease_until is null or notice_lease_until < $1)
                 limit 1 for update skip locked)
     returning id, client_id, url`,
    [now, leaseUntil],
  );
  return rows[0];
};

export const finishNotice = async (db: Queryable, webhookId: string): Promise<void> => {
  await db.query('update webhooks set notice_pending = false, notice_lease_until = null where id = $1', [webhookId]);
};

export const releaseNotice = async (db: Queryable, webhookId: string): Promise<void> => {
  await db.query('update webhooks set notice_lease_until = null where id = $1', [webhookId]);
};

export const insertTestDelivery = async (
  db: Queryable,
  d: { id: string; webhookId: string; clientId: string; eventId: string; eventType: TEventType; at: Date },
): Promise<void> => {
  await db.query(
    `insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, attempts, created_at)
     values ($1, $2, $3, $4, $5, 'test', 1, $6)`,
    [d.id, d.webhookId, d.clientId, d.eventId, d.eventType, d.at],
  );
};
