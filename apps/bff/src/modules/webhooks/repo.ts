import type { TEventType, TListWebhooksQuery, TPagination, TWebhook } from '@credit/contract';
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
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, client_id, url, events, status, secret_enc, previous_secret_enc, previous_secret_expires_at,
  failure_count, created_at, updated_at`;

export const toWebhook = (row: WebhookRow): TWebhook => ({
  webhookId: row.id,
  url: row.url,
  events: row.events,
  status: row.status,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

export interface NewWebhook {
  id: string;
  clientId: string;
  url: string;
  events: TEventType[];
  secretEnc: string;
  createdAt: Date;
}

export const insertWebhook = async (db: Queryable, w: NewWebhook): Promise<WebhookRow> => {
  const { rows } = await db.query<WebhookRow>(
    `insert into webhooks (id, client_id, url, events, status, secret_enc, created_at, updated_at)
     values ($1, $2, $3, $4, 'active', $5, $6, $6) returning ${COLUMNS}`,
    [w.id, w.clientId, w.url, w.events, w.secretEnc, w.createdAt],
  );
  return rows[0] as WebhookRow;
};

/** Another client's webhook is indistinguishable from a missing one. */
export const findWebhook = async (db: Queryable, clientId: string, id: string, forUpdate = false) => {
  const { rows } = await db.query<WebhookRow>(
    `select ${COLUMNS} from webhooks where id = $1 and client_id = $2${forUpdate ? ' for update' : ''}`,
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
