import type { TAlert, TAlertType, TListAlertsQuery, TPagination } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { createdAtCursorValue, Filters, keysetPage } from '../../db/keyset.ts';
import { isWriteBehind } from '../../db/write-behind.ts';

export interface AlertRow {
  id: string;
  user_id: string;
  client_id: string;
  type: TAlertType;
  title: string;
  message: string;
  severity: TAlert['severity'];
  status: TAlert['status'];
  data: Record<string, unknown>;
  created_at: Date;
  read_at: Date | null;
}

const COLUMNS = 'id, user_id, client_id, type, title, message, severity, status, data, created_at, read_at';

export const toAlert = (row: AlertRow): TAlert => ({
  alertId: row.id,
  type: row.type,
  title: row.title,
  message: row.message,
  severity: row.severity,
  status: row.status,
  createdAt: new Date(row.created_at).toISOString(),
  data: row.data,
});

export interface NewAlert {
  id: string;
  userId: string;
  clientId: string;
  type: TAlertType;
  title: string;
  message: string;
  severity: TAlert['severity'];
  data: Record<string, unknown>;
  createdAt: Date;
}

const INSERT_ALERT = `insert into alerts
  (id, user_id, client_id, type, title, message, severity, status, data, created_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`;

export const insertAlert = async (tx: Queryable, a: NewAlert): Promise<AlertRow> => {
  const data = JSON.stringify(a.data);
  // Parameters only (status too), so a group's alerts join one multi-row insert (db/write-behind.ts).
  const params = [a.id, a.userId, a.clientId, a.type, a.title, a.message, a.severity, 'unread', data, a.createdAt];
  if (isWriteBehind(tx)) {
    // A group commit's caller reads nothing back, so the insert waits with the group's writes instead of a round
    // trip; elsewhere the answer is the stored row, its data in the key order every later read gives.
    await tx.query(INSERT_ALERT, params);
    return { ...toRow(a), status: 'unread', read_at: null };
  }
  const { rows } = await tx.query<AlertRow>(`${INSERT_ALERT} returning ${COLUMNS}`, params);
  return rows[0] as AlertRow;
};

const toRow = (a: NewAlert) => ({
  id: a.id,
  user_id: a.userId,
  client_id: a.clientId,
  type: a.type,
  title: a.title,
  message: a.message,
  severity: a.severity,
  data: a.data,
  created_at: a.createdAt,
});

/**
 * Marks one of the user's alerts read; the first read time is kept when it is read again.
 * Scoped by client and user, so another user's alert is indistinguishable from a missing one.
 * An alert already read is not written again (a widget marks what it shows, often more than once): no new row
 * version, no WAL, no commit to wait for, and no row lock for concurrent marks of one alert to queue on. One
 * statement either way: the update when the alert is unread, else the alert as it is. When it answers nothing, a
 * second statement looks again: a concurrent mark committed between this statement's snapshot and its update (the
 * update then found the alert read, the snapshot still unread), or there is no such alert.
 */
export const markAlertRead = async (
  db: Queryable,
  clientId: string,
  userId: string,
  alertId: string,
  at: Date,
): Promise<AlertRow | undefined> => {
  const { rows } = await db.query<AlertRow>(
    `with updated as (
       update alerts set status = 'read', read_at = coalesce(read_at, $4)
       where id = $1 and client_id = $2 and user_id = $3 and status <> 'read' returning ${COLUMNS}
     )
     select ${COLUMNS} from updated
     union all
     select ${COLUMNS} from alerts
     where id = $1 and client_id = $2 and user_id = $3 and status = 'read' and not exists (select 1 from updated)`,
    [alertId, clientId, userId, at],
  );
  if (rows[0]) return rows[0];
  const { rows: current } = await db.query<AlertRow>(
    `select ${COLUMNS} from alerts where id = $1 and client_id = $2 and user_id = $3`,
    [alertId, clientId, userId],
  );
  return current[0];
};

const SORT_COLUMNS = { createdAt: { column: 'created_at', type: 'timestamp' as const } };

export const listUserAlerts = (
  db: Queryable,
  clientId: string,
  userId: string,
  query: TListAlertsQuery,
  cursors: CursorCodec,
): Promise<{ items: AlertRow[]; pagination: TPagination }> => {
  const filters = new Filters().add((p) => `client_id = ${p}`, clientId).add((p) => `user_id = ${p}`, userId);
  if (query.status !== 'all') filters.add((p) => `status = ${p}`, query.status);
  if (query.type) filters.add((p) => `type = ${p}`, query.type);
  filters.createdWindow(query);
  return keysetPage<AlertRow>(db, {
    cursors,
    list: `alerts:${userId}`,
    table: 'alerts',
    columns: COLUMNS,
    filters,
    sortColumns: SORT_COLUMNS,
    query,
    cursorValue: createdAtCursorValue,
  });
};

/**
 * The user's last two stored scores, newest first, in the credit module's order (insertion order).
 * Read-only; the credit service owns writing them.
 */
export const lastTwoScores = async (db: Queryable, clientId: string, userId: string): Promise<number[]> => {
  const { rows } = await db.query<{ score: number }>(
    'select score from score_history where client_id = $1 and user_id = $2 order by seq desc limit 2',
    [clientId, userId],
  );
  return rows.map((r) => Number(r.score));
};
