import type { TListAuditEventsQuery, TPagination } from '@credit/contract';
import type { CursorCodec } from '../../core/cursor.ts';
import type { Queryable } from '../../db/db.ts';
import { Filters, keysetPage } from '../../db/keyset.ts';
import { type AuditEventRow, EVENT_COLUMNS } from './chain-repo.ts';

// The trail reads oldest first, in chain order: the sequence is the one total order of a client's entries.
const SORT_COLUMNS = { sequence: { column: 'seq', type: 'text' as const } };

/**
 * One page of a client's trail, filtered by user, type and time window. The client id is the first filter and part of
 * the cursor's binding, so no filter or cursor can reach another client's entries.
 */
export const listClientAuditEvents = (
  db: Queryable,
  clientId: string,
  query: TListAuditEventsQuery,
  cursors: CursorCodec,
): Promise<{ items: AuditEventRow[]; pagination: TPagination }> => {
  const filters = new Filters().add((p) => `client_id = ${p}`, clientId);
  if (query.userId) filters.add((p) => `user_id = ${p}`, query.userId);
  if (query.type) filters.add((p) => `type = ${p}`, query.type);
  filters.instantAtLeast('occurred_at', query.from, 'query.from').instantBefore('occurred_at', query.to, 'query.to');
  return keysetPage<AuditEventRow>(db, {
    cursors,
    list: `audit-events:${clientId}`,
    table: 'audit_events',
    columns: EVENT_COLUMNS,
    filters,
    sortColumns: SORT_COLUMNS,
    query: { ...query, sort: 'sequence' },
    cursorValue: (row, field) => (field === 'sequence' ? String(row.seq) : row.id),
  });
};
