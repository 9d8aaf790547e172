import type { TEventType } from '@credit/contract';
import type { Queryable } from '../../db/db.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { notOfPurgedUser } from '../../outbox/outbox-repo.ts';
import type { EventToSend } from './envelope.ts';
import type { AttemptRecord } from './log-repo.ts';
import type { WebhookRow } from './repo.ts';

/** Copies and marks events in one transaction, so a crash leaves them for the next worker; SKIP LOCKED lets workers share. */
export const fanOutBatch = async (tx: Queryable, ids: IdGenerator, now: Date, limit: number): Promise<number> => {
  // A null hook is an event nobody subscribes to: it is still marked dispatched.
  const { rows } = await tx.query<{ seq: string; id: string; client_id: string; type: TEventType; hook_id: string | null }>(
    `with ev as (
       select seq, id, client_id, type from outbox_events where dispatched_at is null
       order by seq limit $1 for update skip locked)
     select ev.seq, ev.id, ev.client_id, ev.type, w.id as hook_id
     from ev left join webhooks w on w.client_id = ev.client_id and w.status = 'active' and ev.type = any(w.events)`,
    [limit],
  );
  if (rows.length === 0) return 0;
  const seqs = [...new Set(rows.map((r) => r.seq))];
  const pairs = rows.filter((r) => r.hook_id !== null);
  // One lock order with recover and delete: each subscription's row (a key-share lock, which waits for a delete and
  // skips the subscription it removed), then its deliveries, by (webhook, event), the unique key recover inserts by.
  await tx.query(
    `with copied as (
       insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, next_attempt_at, created_at)
       select d.id, d.webhook_id, d.client_id, d.event_id, d.event_type, 'pending', $6, $6
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as d(id, webhook_id, client_id, event_id, event_type)
         join webhooks w on w.id = d.webhook_id
       order by d.webhook_id, d.event_id
       for key share of w
       on conflict (webhook_id, event_id) do nothing)
     update outbox_events set dispatched_at = $6 where seq = any($7::bigint[])`,
    [
      pairs.map(() => ids.id('del')),
      pairs.map((p) => p.hook_id),
      pairs.map((p) => p.client_id),
      pairs.map((p) => p.id),
      pairs.map((p) => p.type),
      now,
      seqs,
    ],
  );
  return seqs.length;
};

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number;
  /** `attempts` when the current retry schedule began: the next delay is the schedule's `attempts - schedule_base`-th. */
  schedule_base: number;
}

/** The lease stops two workers making the same attempt; if this worker dies it runs out and another retries (at-least-once). */
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
     returning id, webhook_id, event_id, attempts, schedule_base`,
    [now, leaseUntil, leaseToken, limit],
  );
  return rows;
};

/** What sending and settling a delivery read of its subscription, as it was when the delivery was claimed. */
export type ClaimedWebhook = Pick<
  WebhookRow,
  | 'id'
  | 'client_id'
  | 'url'
  | 'events'
  | 'status'
  | 'secret_enc'
  | 'previous_secret_enc'
  | 'previous_secret_expires_at'
  | 'failure_count'
  | 'retry_schedule'
  | 'last_success_at'
  | 'created_at'
  | 'updated_at'
>;

/** A leased delivery with everything needed to send it: its event and its subscription, read in the same statement. */
export interface DeliveryJob extends ClaimedDelivery {
  event: EventToSend | undefined;
  webhook: ClaimedWebhook;
}

/** What a claim may take: `limit` in all, and of each client at most its room. */
export interface DeliveryClaim {
  now: Date;
  leaseUntil: Date;
  leaseToken: string;
  limit: number;
  /** Receivers already at this worker's in-flight limit, so their backlog does not crowd out others. */
  skipWebhooks: string[];
  /** The most of one client's deliveries one claim takes (default: `limit`). */
  perClient?: number;
  /** Clients this worker already holds deliveries of, with the fewer they may still take (0: none). */
  clientRooms?: { clientId: string; room: number }[];
}

/**
 * Takes due deliveries in turns across clients (every client's oldest, then every client's second, …, each up to its
 * room), so one client's backlog cannot fill a claim while another waits. Candidates are locked one at a time, in turn
 * order, through a LATERAL lookup: rows another worker holds give way to the next in turn, and no row estimate of a
 * young table can make the plan rescan the ranking once per row.
 */
export const claimDeliveryJobs = async (db: Queryable, claim: DeliveryClaim): Promise<DeliveryJob[]> => {
  const rooms = claim.clientRooms ?? [];
  const { rows } = await db.query<
    ClaimedDelivery & {
      event_type: TEventType | null;
      event_data: Record<string, unknown> | null;
      event_created_at: Date | null;
    } & Omit<ClaimedWebhook, 'id'>
  >(
    `with turns as materialized (
       select id from (
         select d.id, d.next_attempt_at, coalesce(h.room, $6::int) as room,
           row_number() over (partition by d.client_id order by d.next_attempt_at, d.id) as turn
         from webhook_deliveries d join webhooks w on w.id = d.webhook_id
           left join unnest($7::text[], $8::int[]) as h(client_id, room) on h.client_id = d.client_id
         where d.state = 'pending' and d.next_attempt_at <= $1 and w.status = 'active'
           and (d.lease_until is null or d.lease_until < $1)
           and d.webhook_id <> all($5::text[]) and coalesce(h.room, $6::int) > 0) ranked
       where turn <= room
       order by turn, next_attempt_at, id),
     claimed as (
       update webhook_deliveries set lease_token = $3, lease_until = $2
       where id in (
         select locked.id from turns cross join lateral (
           select d.id from webhook_deliveries d
           where d.id = turns.id and d.state = 'pending' and d.next_attempt_at <= $1
             and (d.lease_until is null or d.lease_until < $1)
           for update skip locked) locked
         limit $4)
       returning id, webhook_id, event_id, attempts, schedule_base, next_attempt_at)
     select c.id, c.webhook_id, c.event_id, c.attempts, c.schedule_base,
       e.type as event_type, e.data as event_data, e.created_at as event_created_at,
       w.client_id, w.url, w.events, w.status, w.secret_enc, w.previous_secret_enc, w.previous_secret_expires_at,
       w.failure_count, w.retry_schedule, w.last_success_at, w.created_at, w.updated_at
     from claimed c join webhooks w on w.id = c.webhook_id left join outbox_events e on e.id = c.event_id
     order by c.next_attempt_at, c.id`,
    [
      claim.now,
      claim.leaseUntil,
      claim.leaseToken,
      claim.limit,
      claim.skipWebhooks,
      claim.perClient ?? claim.limit,
      rooms.map((r) => r.clientId),
      rooms.map((r) => r.room),
    ],
  );
  return rows.map((r) => ({
    id: r.id,
    webhook_id: r.webhook_id,
    event_id: r.event_id,
    attempts: r.attempts,
    schedule_base: r.schedule_base,
    event:
      r.event_type && r.event_created_at
        ? { id: r.event_id, type: r.event_type, data: r.event_data ?? {}, createdAt: new Date(r.event_created_at) }
        : undefined,
    webhook: {
      id: r.webhook_id,
      client_id: r.client_id,
      url: r.url,
      events: r.events,
      status: r.status,
      secret_enc: r.secret_enc,
      previous_secret_enc: r.previous_secret_enc,
      previous_secret_expires_at: r.previous_secret_expires_at,
      failure_count: r.failure_count,
      retry_schedule: r.retry_schedule,
      last_success_at: r.last_success_at,
      created_at: r.created_at,
      updated_at: r.updated_at,
    },
  }));
};

export interface AttemptSettlement {
  deliveryId: string;
  leaseToken: string;
  webhookId: string;
  /** undefined: nothing was sent (the event is gone), so no attempt is logged. */
  attempt?: Omit<AttemptRecord, 'deliveryId' | 'webhookId'>;
  next: { state: 'succeeded' | 'failed' | 'pending'; nextAttemptAt: Date | null };
  /** This failure was the last retry: the subscription turns `failed`. */
  final: boolean;
  /** The subscription's failure count when claimed: a success resets it when it was not 0. */
  failureCountSeen: number;
  /**
   * The subscription's `last_success_at` when claimed (undefined: not known). A success less than
   * HEALTH_RESOLUTION_MS after it, with no failures to count or reset, leaves the subscription's row alone.
   */
  lastSuccessSeen?: Date | null;
}

/**
 * How stale `lastDeliveryAt`/`lastSuccessAt` may be on a healthy subscription: a steady stream of successes writes its
 * row about once a second per worker, not once per batch, so the row stays cool for API changes and other workers.
 */
export const HEALTH_RESOLUTION_MS = 1_000;

/** What one settling batch changes on one subscription. */
interface HealthChange {
  write: boolean;
  reset: boolean;
  add: number;
  lastAt: Date | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastFailureReason: string | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

const later = (a: Date | null, b: Date) => (a && a.getTime() >= b.getTime() ? a : b);

/**
 * Per subscription, in the order the attempts ended: failures since the batch's last success (`reset`) or on top of
 * the stored count, the latest attempt, success and failure, and, for a last retry that failed, why it turns `failed`.
 */
const healthChanges = (
  logged: AttemptSettlement[],
  settled: Map<string, { attempts: number; alreadyDelivered: boolean }>,
): Map<string, HealthChange> => {
  const changes = new Map<string, HealthChange>();
  for (const s of logged) {
    const row = settled.get(s.deliveryId);
    if (!row || !s.attempt) continue;
    let change = changes.get(s.webhookId);
    if (!change) {
      change = {
        write: false,
        reset: false,
        add: 0,
        lastAt: null,
        lastSuccessAt: null,
        lastFailureAt: null,
        lastFailureReason: null,
        disabledAt: null,
        disabledReason: null,
      };
      changes.set(s.webhookId, change);
    }
    const at = s.attempt.deliveredAt;
    change.lastAt = later(change.lastAt, at);
    if (s.attempt.status === 'success') {
      change.reset = true;
      change.add = 0;
      change.lastSuccessAt = later(change.lastSuccessAt, at);
      const seen = s.lastSuccessSeen;
      const fresh = seen && at.getTime() - new Date(seen).getTime() < HEALTH_RESOLUTION_MS;
      if (s.failureCountSeen !== 0 || !fresh) change.write = true;
    } else {
      change.add += 1;
      change.write = true;
      if (!change.lastFailureAt || at.getTime() >= change.lastFailureAt.getTime()) {
        change.lastFailureAt = at;
        change.lastFailureReason = s.attempt.error ?? null;
      }
    }
    if (s.final && !row.alreadyDelivered && !change.disabledReason) {
      change.disabledAt = at;
      change.disabledReason = `failed after ${row.attempts} attempts of delivery ${s.deliveryId}: ${s.attempt.error ?? 'unknown failure'}`;
    }
  }
  return changes;
};

/**
 * Attempts are numbered by the row's count, not the claim's, so a resend asked for meanwhile never shares a number. A
 * worker that lost a lease leaves the outcome to the one that took over.
 */
export const settleAttempts = async (
  tx: Queryable,
  settlements: AttemptSettlement[],
): Promise<{ settled: Set<string>; failedWebhooks: string[] }> => {
  if (settlements.length === 0) return { settled: new Set(), failedWebhooks: [] };
  const logged = settlements.filter((s) => s.attempt);
  // A resend you asked for may have delivered the event while this attempt ran: a success then stays a success.
  // The subscriptions are locked first, in id order, then their deliveries (`locked` is an init plan of the update,
  // so it runs before any row is updated): the order a delete takes (its row, then the cascade), so the two cannot
  // deadlock. A key-share lock leaves the fan-out's inserts and other settlers free to go on.
  const { rows } = await tx.query<{ id: string; attempts: number; already_delivered: boolean }>(
    `with locked as (select id from webhooks where id = any($15::text[]) order by id for key share),
     settled as (
       update webhook_deliveries d set state = case when d.state = 'succeeded' then 'succeeded' else v.state end,
         next_attempt_at = case when d.state = 'succeeded' then null else v.next_at end, attempts = d.attempts + 1,
         lease_token = null, lease_until = null
       from unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) as v(id, token, state, next_at)
       where d.id = v.id and d.lease_token = v.token and (select count(*) from locked) >= 0
       returning d.id, d.attempts, d.state = 'succeeded' and v.state <> 'succeeded' as already_delivered),
     logged as (
       insert into webhook_attempts (delivery_id, webhook_id, event_id, event_type, attempt, status, status_code,
         response_time_ms, delivered_at, error)
       select a.delivery_id, a.webhook_id, a.event_id, a.event_type, s.attempts, a.status, a.status_code, a.response_time_ms,
         a.delivered_at, a.error
       from unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::int[], $12::int[],
         $13::timestamptz[], $14::text[]) with ordinality as a(delivery_id, webhook_id, event_id, event_type, attempt, status,
         status_code, response_time_ms, delivered_at, error, n)
       join settled s on s.id = a.delivery_id
       order by a.n)
     select id, attempts, already_delivered from settled`,
    [
      settlements.map((s) => s.deliveryId),
      settlements.map((s) => s.leaseToken),
      settlements.map((s) => s.next.state),
      settlements.map((s) => s.next.nextAttemptAt),
      logged.map((s) => s.deliveryId),
      logged.map((s) => s.webhookId),
      logged.map((s) => s.attempt?.eventId),
      logged.map((s) => s.attempt?.eventType),
      logged.map((s) => s.attempt?.attempt),
      logged.map((s) => s.attempt?.status),
      logged.map((s) => s.attempt?.statusCode),
      logged.map((s) => s.attempt?.responseTimeMs),
      logged.map((s) => s.attempt?.deliveredAt),
      logged.map((s) => s.attempt?.error ?? null),
      [...new Set(settlements.map((s) => s.webhookId))],
    ],
  );
  const settled = new Map(rows.map((r) => [r.id, { attempts: r.attempts, alreadyDelivered: r.already_delivered }]));
  const changes = [...healthChanges(logged, settled)].filter(([, change]) => change.write);
  let failedWebhooks: string[] = [];
  if (changes.length > 0) {
    // Rows locked in one order, so two workers settling overlapping subscriptions cannot deadlock each other; one
    // statement keeps the count, the health and a turn to `failed` (with its notice) together.
    changes.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const column = <T>(pick: (change: HealthChange) => T) => changes.map(([, change]) => pick(change));
    const { rows: updated } = await tx.query<{ id: string; flipped: boolean }>(
      `with v as (
         select * from unnest($1::text[], $2::bool[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[],
           $7::text[], $8::timestamptz[], $9::text[])
           as v(id, reset, add, last_at, last_success_at, last_failure_at, last_failure_reason, disabled_at, disabled_reason)),
       locked as materialized (select id, status from webhooks where id = any($1::text[]) order by id for no key update)
       update webhooks w set
         failure_count = case when v.reset then v.add else w.failure_count + v.add end,
         last_delivery_at = greatest(w.last_delivery_at, v.last_at),
         last_success_at = greatest(w.last_success_at, v.last_success_at),
         last_failure_at = greatest(w.last_failure_at, v.last_failure_at),
         last_failure_reason = case when v.last_failure_at >= coalesce(w.last_failure_at, '-infinity')
           then v.last_failure_reason else w.last_failure_reason end,
         status = case when l.status = 'active' and v.disabled_reason is not null then 'failed' else w.status end,
         notice_pending = w.notice_pending or (l.status = 'active' and v.disabled_reason is not null),
         disabled_at = case when l.status = 'active' and v.disabled_reason is not null then v.disabled_at else w.disabled_at end,
         disabled_reason = case when l.status = 'active' and v.disabled_reason is not null
           then v.disabled_reason else w.disabled_reason end,
         updated_at = case when l.status = 'active' and v.disabled_reason is not null then v.disabled_at else w.updated_at end
       from locked l join v on v.id = l.id
       where w.id = l.id
       returning w.id, l.status = 'active' and v.disabled_reason is not null as flipped`,
      [
        changes.map(([id]) => id),
        column((c) => c.reset),
        column((c) => c.add),
        column((c) => c.lastAt),
        column((c) => c.lastSuccessAt),
        column((c) => c.lastFailureAt),
        column((c) => c.lastFailureReason),
        column((c) => c.disabledAt),
        column((c) => c.disabledReason),
      ],
    );
    failedWebhooks = updated.filter((r) => r.flipped).map((r) => r.id);
  }
  return { settled: new Set(settled.keys()), failedWebhooks };
};

/** Gives back leases of deliveries this worker claimed but will not send (it is stopping, or they waited too long). */
export const releaseDeliveries = async (db: Queryable, leases: { deliveryId: string; leaseToken: string }[]) => {
  if (leases.length === 0) return;
  await db.query(
    `update webhook_deliveries d set lease_token = null, lease_until = null
     from unnest($1::text[], $2::text[]) as v(id, token) where d.id = v.id and d.lease_token = v.token`,
    [leases.map((l) => l.deliveryId), leases.map((l) => l.leaseToken)],
  );
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

/** Re-activation: a fresh schedule for the deliveries still waiting; their attempt numbers go on. */
export const restartPendingDeliveries = async (tx: Queryable, webhookId: string, at: Date): Promise<void> => {
  await tx.query(
    `update webhook_deliveries set schedule_base = attempts, next_attempt_at = $2 where webhook_id = $1 and state = 'pending'`,
    [webhookId, at],
  );
};

/**
 * `recover`: re-queues failed deliveries and never-delivered events of the window, of the event types the subscription
 * receives now (a type it has dropped stays as it was); a null `nextAttemptAt` parks them. The unique (webhook, event)
 * pair keeps a concurrent fan-out from queueing an event twice.
 */
export const requeueSince = async (
  tx: Queryable,
  ids: IdGenerator,
  webhook: { id: string; clientId: string; events: TEventType[]; createdAt: Date },
  window: { since: Date; until: Date | null },
  nextAttemptAt: Date | null,
  now: Date,
): Promise<number> => {
  const requeued = await tx.query(
    `update webhook_deliveries d set state = 'pending', schedule_base = d.attempts, next_attempt_at = $4,
       lease_token = null, lease_until = null
     from outbox_events e
     where d.webhook_id = $1 and d.state = 'failed' and e.id = d.event_id and e.type = any($5::text[])
       and e.created_at >= $2 and ($3::timestamptz is null or e.created_at < $3) and ${notOfPurgedUser('e')}`,
    [webhook.id, window.since, window.until, nextAttemptAt, webhook.events],
  );
  const { rows } = await tx.query<{ id: string; type: TEventType }>(
    `select e.id, e.type from outbox_events e
     where e.client_id = $1 and e.type = any($2::text[]) and e.created_at >= greatest($3::timestamptz, $5::timestamptz)
       and ($4::timestamptz is null or e.created_at < $4)
       and not exists (select 1 from webhook_deliveries d where d.webhook_id = $6 and d.event_id = e.id)
       and ${notOfPurgedUser('e')}`,
    [webhook.clientId, webhook.events, window.since, window.until, webhook.createdAt, webhook.id],
  );
  if (rows.length === 0) return requeued.rowCount;
  const added = await tx.query(
    `insert into webhook_deliveries (id, webhook_id, client_id, event_id, event_type, state, next_attempt_at, created_at)
     select d.id, $3, $4, d.event_id, d.event_type, 'pending', $5, $6
     from unnest($1::text[], $2::text[], $7::text[]) as d(id, event_id, event_type)
     order by d.event_id
     on conflict (webhook_id, event_id) do nothing`,
    [
      rows.map(() => ids.id('del')),
      rows.map((r) => r.id),
      webhook.id,
      webhook.clientId,
      nextAttemptAt,
      now,
      rows.map((r) => r.type),
    ],
  );
  return requeued.rowCount + added.rowCount;
};

/** A delivery with what resending it needs; undefined when it is not this subscription's, or its event is gone. */
export const findDeliveryToResend = async (
  db: Queryable,
  webhookId: string,
  deliveryId: string,
): Promise<{ id: string; event: EventToSend } | undefined> => {
  const { rows } = await db.query<{
    id: string;
    event_id: string;
    type: TEventType;
    data: Record<string, unknown>;
    created_at: Date;
  }>(
    `select d.id, d.event_id, e.type, e.data, e.created_at
     from webhook_deliveries d join outbox_events e on e.id = d.event_id
     where d.id = $1 and d.webhook_id = $2 and ${notOfPurgedUser('e')}`,
    [deliveryId, webhookId],
  );
  const row = rows[0];
  return row
    ? { id: row.id, event: { id: row.event_id, type: row.type, data: row.data, createdAt: new Date(row.created_at) } }
    : undefined;
};

/**
 * Moves the schedule along with a partner's resend so automatic retries keep their place. Undefined when the delivery is
 * gone (its subscription was deleted meanwhile). The subscription's row is locked before the delivery's, the order a
 * delete takes.
 */
export const recordResend = async (
  tx: Queryable,
  deliveryId: string,
  delivered: boolean,
): Promise<{ attempt: number; nextAttemptAt: Date | null } | undefined> => {
  const { rows } = await tx.query<{ attempts: number; next_attempt_at: Date | null }>(
    `update webhook_deliveries d set attempts = d.attempts + 1, schedule_base = d.schedule_base + 1,
       state = case when $2::boolean then 'succeeded' else d.state end,
       next_attempt_at = case when $2::boolean then null else d.next_attempt_at end
     from (select id, status from webhooks where id = (select webhook_id from webhook_deliveries where id = $1)
           for key share) w
     where d.id = $1 and w.id = d.webhook_id
     returning d.attempts, case when d.state = 'pending' and w.status = 'active' then d.next_attempt_at end as next_attempt_at`,
    [deliveryId, delivered],
  );
  const row = rows[0];
  return row ? { attempt: row.attempts, nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null } : undefined;
};

export interface NoticeClaim {
  id: string;
  client_id: string;
  url: string;
  /** Why the last failed attempt failed (`connection refused`, `http 500`, …), for the e-mail; null if unknown. */
  last_error: string | null;
  /** `failed after 6 attempts of delivery del_…: http 500`; null on a row that turned failed before it was kept. */
  disabled_reason?: string | null;
}

/** Leases one pending failure notice; a crash before `finishNotice` sends it again after the lease. */
export const claimNotice = async (db: Queryable, now: Date, leaseUntil: Date): Promise<NoticeClaim | undefined> => {
  const { rows } = await db.query<NoticeClaim>(
    `update webhooks set notice_lease_until = $2
     where id = (select id from webhooks where notice_pending and (notice_lease_until is null or notice_lease_until < $1)
                 limit 1 for update skip locked)
     returning id, client_id, url, disabled_reason,
       (select a.error from webhook_attempts a where a.webhook_id = webhooks.id and a.status = 'failed'
        order by a.delivered_at desc, a.seq desc limit 1) as last_error`,
    [now, leaseUntil],
  );
  return rows[0];
};

export const finishNotice = async (db: Queryable, webhookId: string, sentAt: Date): Promise<void> => {
  await db.query(
    'update webhooks set notice_pending = false, notice_lease_until = null, failure_notice_sent_at = $2 where id = $1',
    [webhookId, sentAt],
  );
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
