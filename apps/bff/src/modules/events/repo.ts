import type { TEventType, TListEventsQuery, TPagination } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { createdAtCursorValue, Filters, keysetPage } from '../../db/keyset.ts';
import { notOfPurgedUser } from '../../outbox/outbox-repo.ts';

export interface EventRow {
  id: string;
  type: TEventType;
  data: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = 'id, type, data, created_at';
const SORT_COLUMNS = { createdAt: { column: 'created_at', type: 'timestamp' as const } };
const NEWEST_FIRST = '-createdAt';

/**
 * A client's events from `since` on. A purged user's events are left out: their personal fields were erased, so what
 * remains is no longer the envelope that was delivered.
 */
const clientEvents = (clientId: string, since: Date) =>
  new Filters()
    .add((p) => `client_id = ${p}`, clientId)
    .add((p) => `created_at >= ${p}::timestamptz`, since)
    .always(notOfPurgedUser('outbox_events'));

export const listClientEvents = (
  db: Queryable,
  clientId: string,
  since: Date,
  query: TListEventsQuery,
  cursors: CursorCodec,
): Promise<{ items: EventRow[]; pagination: TPagination }> => {
  const filters = clientEvents(clientId, since);
  if (query.type) filters.add((p) => `type = ${p}`, query.type);
  if (query.userId) filters.add((p) => `data->>'userId' = ${p}`, query.userId);
  filters.createdWindow(query);
  return keysetPage<EventRow>(db, {
    cursors,
    list: `events:${clientId}`,
    table: 'outbox_events',
    columns: COLUMNS,
    filters,
    sortColumns: SORT_COLUMNS,
    query: { ...query, sort: NEWEST_FIRST },
    cursorValue: createdAtCursorValue,
  });
};

/** Another client's event is indistinguishable from a missing one. */
export const findClientEvent = async (db: Queryable, clientId: string, since: Date, eventId: string) => {
  const filters = clientEvents(clientId, since).add((p) => `id = ${p}`, eventId);
  const { rows } = await db.query<EventRow>(`select ${COLUMNS} from outbox_events where ${filters.sql}`, filters.params);
  return rows[0];
};
