import type { TDeliveryLogEntry, TEventType, TListDeliveriesQuery, TPagination } from '@credit/contract';
import { type CursorCodec, invalidCursor } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { afterCursorCondition, decodeKeysetCursor, encodeKeysetCursor, pageOf, type SortTerm } from '../../db/keyset.ts';

interface AttemptRow {
  seq: string;
  delivery_id: string;
  event_id: string;
  event_type: TEventType;
  attempt: number;
  status: TDeliveryLogEntry['status'];
  status_code: number;
  response_time_ms: number;
  delivered_at: Date;
  error: string | null;
  next_attempt_at: Date | null;
}

export interface AttemptRecord {
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: TEventType;
  attempt: number;
  status: TDeliveryLogEntry['status'];
  statusCode: number;
  responseTimeMs: number;
  deliveredAt: Date;
  /** Why a failed attempt failed (failure-reason.ts); undefined on success. */
  error?: string | undefined;
  /** When the delivery is tried again after this attempt; null when nothing is due. */
  nextAttemptAt?: Date | null;
}

export const toLogEntry = (a: AttemptRecord): TDeliveryLogEntry => ({
  deliveryId: a.deliveryId,
  eventId: a.eventId,
  eventType: a.eventType,
  status: a.status,
  statusCode: a.statusCode,
  responseTime: a.responseTimeMs,
  deliveredAt: a.deliveredAt.toISOString(),
  attempt: a.attempt,
  nextAttemptAt: a.nextAttemptAt ? a.nextAttemptAt.toISOString() : null,
  ...(a.error ? { error: a.error } : {}),
});

export const insertAttempt = async (db: Queryable, a: AttemptRecord): Promise<void> => {
  await db.query(
    `insert into webhook_attempts (delivery_id, webhook_id, event_id, event_type, attempt, status, status_code,
       response_time_ms, delivered_at, error)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      a.deliveryId,
      a.webhookId,
      a.eventId,
      a.eventType,
      a.attempt,
      a.status,
      a.statusCode,
      a.responseTimeMs,
      a.deliveredAt,
      a.error ?? null,
    ],
  );
};

// Newest first; `seq` breaks ties between attempts logged in the same millisecond.
const LOG_ORDER = 'newest';
const TERMS: SortTerm[] = [
  { field: 'deliveredAt', column: 'delivered_at', type: 'timestamp', descending: true },
  { field: 'id', column: 'seq', type: 'text', descending: true },
];

export const listAttempts = async (
  db: Queryable,
  webhookId: string,
  query: TListDeliveriesQuery,
  cursors: CursorCodec,
): Promise<{ items: TDeliveryLogEntry[]; pagination: TPagination }> => {
  // A cursor opens only the logs of the subscription it was issued for.
  const list = `webhook_attempts:${webhookId}`;
  const params: unknown[] = [webhookId];
  const filters = ['a.webhook_id = $1'];
  if (query.status) {
    params.push(query.status);
    filters.push(`a.status = $${params.length}`);
  }
  const where = filters.join(' and ');
  const countParams = [...params];
  let cursorFilter = '';
  if (query.cursor) {
    const values = decodeKeysetCursor(cursors, list, query.cursor, LOG_ORDER, TERMS);
    if (!/^\d{1,18}$/.test(values[1] ?? '')) throw invalidCursor();
    cursorFilter = ` and ${afterCursorCondition(TERMS, values, params).replace(/seq ([<>=]) (\$\d+)/g, 'seq $1 $2::bigint')}`;
  }
  params.push(query.limit + 1);
  // The next attempt is the delivery's, shown on its latest attempt while it waits and its subscription sends.
  const { rows } = await db.query<AttemptRow>(
    `select a.seq::text as seq, a.delivery_id, a.event_id, a.event_type, a.attempt, a.status, a.status_code,
       a.response_time_ms, a.delivered_at, a.error,
       case when d.state = 'pending' and d.attempts = a.attempt and w.status = 'active' then d.next_attempt_at end
         as next_attempt_at
     from webhook_attempts a
       join webhook_deliveries d on d.id = a.delivery_id
       join webhooks w on w.id = a.webhook_id
     where ${where}${cursorFilter} order by a.delivered_at desc, a.seq desc limit $${params.length}`,
    params,
  );
  const count = await db.query<{ total: number }>(
    `select count(*)::int as total from webhook_attempts a where ${where}`,
    countParams,
  );
  const page = pageOf(rows, query.limit, Number(count.rows[0]?.total ?? 0), (row) =>
    encodeKeysetCursor(cursors, list, LOG_ORDER, [new Date(row.delivered_at).toISOString(), row.seq]),
  );
  return {
    items: page.items.map((row) =>
      toLogEntry({
        deliveryId: row.delivery_id,
        webhookId,
        eventId: row.event_id,
        eventType: row.event_type,
        attempt: row.attempt,
        status: row.status,
        statusCode: row.status_code,
        responseTimeMs: row.response_time_ms,
        deliveredAt: new Date(row.delivered_at),
        error: row.error ?? undefined,
        nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
      }),
    ),
    pagination: page.pagination,
  };
};
