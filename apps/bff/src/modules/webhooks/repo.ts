import type { TEventType, TListWebhooksQuery, TPagination, TRetrySchedule, TWebhook } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { createdAtCursorValue, Filters, keysetPage } from '../../db/keyset.ts';

export interface WebhookRow {
  id: string;
  client_id: string;
  url: string;
  events: TEventType[];
  status: TWebhook['status'];
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | null;
  failure_count: number;
  retry_schedule: TRetrySchedule;
  last_delivery_at: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure_reason: string | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failure_notice_sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, client_id, url, events, status, secret_enc, previous_secret_enc, previous_secret_expires_at,
  failure_count, retry_schedule, last_delivery_at, last_success_at, last_failure_at, last_failure_reason, disabled_at,
  disabled_reason, failure_notice_sent_at, created_at, updated_at`;

const instant = (value: Date | null) => (value ? new Date(value).toISOString() : null);

export const toWebhook = (row: WebhookRow): TWebhook => ({
  webhookId: row.id,
  url: row.url,
  events: row.events,
  status: row.status,
  retrySchedule: row.retry_schedule,
  health: {
    lastDeliveryAt: instant(row.last_delivery_at),
    lastSuccessAt: instant(row.last_success_at),
    lastFailureAt: instant(row.last_failure_at),
    lastFailureReason: row.last_failure_reason,
    consecutiveFailures: row.failure_count,
    disabledAt: instant(row.disabled_at),
    disabledReason: row.disabled_reason,
    failureNoticeSentAt: instant(row.failure_notice_sent_at),
  },
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

export interface NewWebhook {
  id: string;
  clientId: string;
  url: string;
  events: TEventType[];
  secretEnc: string;
  /** Default `standard`. */
  retrySchedule?: TRetrySchedule;
  createdAt: Date;
}

export const insertWebhook = async (db: Queryable, w: NewWebhook): Promise<WebhookRow> => {
  const { rows } = await db.query<WebhookRow>(
    `insert into webhooks (id, client_id, url, events, status, secret_enc, retry_schedule, created_at, updated_at)
     values ($1, $2, $3, $4, 'active', $5, $6, $7, $7) returning ${COLUMNS}`,
    [w.id, w.clientId, w.url, w.events, w.secretEnc, w.retrySchedule ?? 'standard', w.createdAt],
  );
  return rows[0] as WebhookRow;
};

/** Another client's webhook is indistinguishable from a missing one. */
export const findWebhook = async (db: Queryable, clientId: string, id: string, forUpdate = false) => {
  // The lock an update of the row takes (not `for update`): the fan-out's inserts of deliveries, which check the row
  // with a key-share lock, go on beside it instead of waiting, so they cannot deadlock with a recover.
  const { rows } = await db.query<WebhookRow>(
    `select ${COLUMNS} from webhooks where id = $1 and client_id = $2${forUpdate ? ' for no key update' : ''}`,
    [id, clientId],
  );
  return rows[0];
};

export interface WebhookChanges {
  url?: string;
  events?: TEventType[];
  status?: TWebhook['status'];
  secretEnc?: string;
  previousSecretEnc?: string | null;
  previousSecretExpiresAt?: Date | null;
  failureCount?: number;
  retrySchedule?: TRetrySchedule;
  disabledAt?: Date | null;
  disabledReason?: string | null;
  updatedAt: Date;
}

const CHANGE_COLUMNS: Record<keyof Omit<WebhookChanges, 'updatedAt'>, string> = {
  url: 'url',
  events: 'events',
  status: 'status',
  secretEnc: 'secret_enc',
  previousSecretEnc: 'previous_secret_enc',
  previousSecretExpiresAt: 'previous_secret_expires_at',
  failureCount: 'failure_count',
  retrySchedule: 'retry_schedule',
  disabledAt: 'disabled_at',
  disabledReason: 'disabled_reason',
};

export const updateWebhook = async (db: Queryable, id: string, changes: WebhookChanges): Promise<WebhookRow> => {
  const params: unknown[] = [id, changes.updatedAt];
  const sets = ['updated_at = $2'];
  for (const [key, column] of Object.entries(CHANGE_COLUMNS)) {
    const value = changes[key as keyof typeof CHANGE_COLUMNS];
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  const { rows } = await db.query<WebhookRow>(
    `update webhooks set ${sets.join(', ')} where id = $1 returning ${COLUMNS}`,
    params,
  );
  return rows[0] as WebhookRow;
};

export const deleteWebhookRow = async (db: Queryable, clientId: string, id: string): Promise<boolean> => {
  const { rowCount } = await db.query('delete from webhooks where id = $1 and client_id = $2', [id, clientId]);
  return rowCount > 0;
};

const SORT_COLUMNS = { createdAt: { column: 'created_at', type: 'timestamp' as const } };

export const listClientWebhooks = (
  db: Queryable,
  clientId: string,
  query: TListWebhooksQuery,
  cursors: CursorCodec,
): Promise<{ items: WebhookRow[]; pagination: TPagination }> => {
  const filters = new Filters().add((p) => `client_id = ${p}`, clientId);
  if (query.status) filters.add((p) => `status = ${p}`, query.status);
  filters.createdWindow(query);
  return keysetPage<WebhookRow>(db, {
    cursors,
    list: `webhooks:${clientId}`,
    table: 'webhooks',
    columns: COLUMNS,
    filters,
    sortColumns: SORT_COLUMNS,
    query,
    cursorValue: createdAtCursorValue,
  });
};
