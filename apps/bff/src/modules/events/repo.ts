import type { TEventType, TListEventsQuery, TPagination } from '@credit/contract';
import { type CursorCodec, invalidCursor } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { createdAtCursorValue, Filters, keysetPage, pageOf } from '../../db/keyset.ts';
import { notOfPurgedUser } from '../../outbox/outbox-repo.ts';

export interface EventRow {
  id: string;
  type: TEventType;
  data: Record<string, unknown>;
  created_at: Date;
}

/** Where an event stands in the order events became visible: its transaction, then its place in it. */
export interface RecordedPosition {
  txid: string;
  seq: string;
}

const COLUMNS = 'id, type, data, created_at';
const SORT_COLUMNS = { createdAt: { column: 'created_at', type: 'timestamp' as const } };
const NEWEST_FIRST = '-createdAt';

/**
 * Events whose transaction began before the oldest one still running: final. Every transaction that may still add an
 * event has a higher `txid`, so a follower that read up to here never passes an event committed later
 * (migration 022). Read-only transactions take no transaction id and hold nothing back.
 */
const SETTLED = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

/**
 * A client's events from `since` on. A purged user's events are left out: their personal fields were erased, so what
 * remains is no longer the envelope that was delivered.
 */
const clientEvents = (clientId: string, since: Date) =>
  new Filters()
    .add((p) => `client_id = ${p}`, clientId)
    .add((p) => `created_at >= ${p}::timestamptz`, since)
    .always(notOfPurgedUser('outbox_events'));

const filtered = (clientId: string, since: Date, query: TListEventsQuery) => {
  const filters = clientEvents(clientId, since);
  if (query.type) filters.add((p) => `type = ${p}`, query.type);
  if (query.userId) filters.add((p) => `data->>'userId' = ${p}`, query.userId);
  return filters.createdWindow(query);
};

export const listClientEvents = (
  db: Queryable,
  clientId: string,
  since: Date,
  query: TListEventsQuery,
  cursors: CursorCodec,
): Promise<{ items: EventRow[]; pagination: TPagination }> =>
  keysetPage<EventRow>(db, {
    cursors,
    list: `events:${clientId}`,
    table: 'outbox_events',
    columns: COLUMNS,
    filters: filtered(clientId, since, query),
    sortColumns: SORT_COLUMNS,
    query: { ...query, sort: NEWEST_FIRST },
    cursorValue: createdAtCursorValue,
  });

/** The position of one of the client's events, whether or not it is still listed; undefined for another's or none. */
export const recordedPositionOf = async (
  db: Queryable,
  clientId: string,
  eventId: string,
): Promise<RecordedPosition | undefined> => {
  const { rows } = await db.query<RecordedPosition>(
    'select txid::text as txid, seq::text as seq from outbox_events where client_id = $1 and id = $2',
    [clientId, eventId],
  );
  return rows[0];
};

const POSITION_PART = /^\d{1,20}$/;
const recordedList = (clientId: string, sort: string) => `events-recorded:${clientId}|${sort}`;

const decodePosition = (cursors: CursorCodec, list: string, cursor: string): RecordedPosition => {
  const payload = cursors.decode(list, cursor) as { p?: unknown } | null;
  const [txid, seq, ...rest] = Array.isArray(payload?.p) ? payload.p : [];
  if (typeof txid !== 'string' || typeof seq !== 'string' || rest.length > 0) throw invalidCursor();
  if (!POSITION_PART.test(txid) || !POSITION_PART.test(seq)) throw invalidCursor();
  return { txid, seq };
};

/**
 * The client's settled events in the order they were recorded (`asc`: oldest first), after `after` and the page's
 * `cursor` when given. The cursor carries the position of the page's last event, so it holds across test clocks'
 * dates and shared `createdAt`s; `total` counts the events matching the filters, `after` among them.
 */
export const listRecordedEvents = async (
  db: Queryable,
  clientId: string,
  since: Date,
  query: TListEventsQuery,
  options: { ascending: boolean; after: RecordedPosition | undefined; cursors: CursorCodec },
): Promise<{ items: EventRow[]; pagination: TPagination }> => {
  const sort = options.ascending ? 'recorded' : '-recorded';
  const list = recordedList(clientId, sort);
  const comparison = options.ascending ? '>' : '<';
  const filters = filtered(clientId, since, query).always(SETTLED);
  // A row comparison leading with client_id, so the (client_id, txid, seq) index serves it as a range.
  const beyond = (position: RecordedPosition) => {
    const at = filters.params.length;
    filters.params.push(clientId, position.txid, position.seq);
    filters.always(`(client_id, txid, seq) ${comparison} ($${at + 1}::text, $${at + 2}::xid8, $${at + 3}::bigint)`);
  };
  if (options.after) beyond(options.after);
  if (query.cursor) beyond(decodePosition(options.cursors, list, query.cursor));
  const order = options.ascending ? 'txid asc, seq asc' : 'txid desc, seq desc';
  const { rows } = await db.query<EventRow & RecordedPosition>(
    `select ${COLUMNS}, txid::text as txid, seq::text as seq from outbox_events where ${filters.sql}
     order by ${order} limit $${filters.params.length + 1}`,
    [...filters.params, query.limit + 1],
  );
  const count = await db.query<{ total: number | string }>(
    `select count(*)::int as total from outbox_events where ${filters.sql}`,
    filters.params,
  );
  const page = pageOf(rows, query.limit, Number(count.rows[0]?.total ?? 0), (last) =>
    options.cursors.encode(list, { p: [last.txid, last.seq] }),
  );
  return {
    items: page.items.map(({ id, type, data, created_at }) => ({ id, type, data, created_at })),
    pagination: page.pagination,
  };
};

/** Another client's event is indistinguishable from a missing one. */
export const findClientEvent = async (db: Queryable, clientId: string, since: Date, eventId: string) => {
  const filters = clientEvents(clientId, since).add((p) => `id = ${p}`, eventId);
  const { rows } = await db.query<EventRow>(`select ${COLUMNS} from outbox_events where ${filters.sql}`, filters.params);
  return rows[0];
};
