import { instantOf, type TPagination } from '@credit/contract';
import { validationError } from '../core/api-error.ts';
import { type CursorCodec, invalidCursor } from '../core/cursor.ts';
import type { Queryable } from './db.ts';

/** A contract-valid instant as UTC text; one whose offset takes it outside 1900–9999 is a 400 naming `field`. */
const utcInstant = (text: string, field: string): string => {
  const at = instantOf(text);
  if (!at) throw validationError([{ field, message: 'must be a real date-time in the years 1900–9999 (UTC)' }]);
  return at.toISOString();
};

export interface SortableColumn {
  column: string;
  type: 'timestamp' | 'text';
}

export interface SortTerm extends SortableColumn {
  field: string;
  descending: boolean;
}

/** `-createdAt,lastName` → terms, with the row id appended so every order is total and stable. */
export const parseSort = (sort: string, columns: Record<string, SortableColumn>): SortTerm[] => {
  const terms = sort.split(',').map((part) => {
    const descending = part.startsWith('-');
    const field = descending ? part.slice(1) : part;
    const column = columns[field];
    if (!column) throw validationError([{ field: 'sort', message: `cannot sort by ${field}` }]);
    return { field, descending, ...column };
  });
  const unique = terms.filter((term, index) => terms.findIndex((t) => t.field === term.field) === index);
  return [...unique, { field: 'id', column: 'id', type: 'text', descending: false }];
};

/** A keyset cursor: the sort it was made for and the row's value of each sort term. */
interface KeysetCursor {
  s: string;
  v: (string | null)[];
}

/** `list` names the list and what shapes its order; the sort joins it, so a cursor only opens the same list and sort. */
const keysetList = (list: string, sort: string) => `${list}|${sort}`;

export const encodeKeysetCursor = (cursors: CursorCodec, list: string, sort: string, values: (string | null)[]): string =>
  cursors.encode(keysetList(list, sort), { s: sort, v: values } satisfies KeysetCursor);

/** Signed, so the values are ours; still checked against the terms, so a codec bug is a 400 rather than a database error. */
const fitsColumn = (value: unknown, term: SortTerm): value is string | null => {
  if (value === null) return term.field !== 'id';
  if (typeof value !== 'string' || value.length > 1000) return false;
  return term.type !== 'timestamp' || !Number.isNaN(Date.parse(value));
};

export const decodeKeysetCursor = (
  cursors: CursorCodec,
  list: string,
  cursor: string,
  sort: string,
  terms: SortTerm[],
): (string | null)[] => {
  const payload = cursors.decode(keysetList(list, sort), cursor) as Partial<KeysetCursor> | null;
  const values: unknown[] = Array.isArray(payload?.v) ? payload.v : [];
  if (payload?.s !== sort || values.length !== terms.length || !values.every((v, i) => fitsColumn(v, terms[i] as SortTerm))) {
    throw invalidCursor();
  }
  return values as (string | null)[];
};

/**
 * Keyset condition "after this row" for a mixed-direction sort:
 * (a > x) or (a = x and b < y) or (a = x and b = y and id > z).
 */
export const afterCursorCondition = (terms: SortTerm[], values: (string | null)[], params: unknown[]): string => {
  const placeholders = values.map((value, i) => {
    params.push(value);
    const cast = (terms[i] as SortTerm).type === 'timestamp' ? '::timestamptz' : '';
    return `$${params.length}${cast}`;
  });
  const branches = terms.map((term, i) => {
    const equalities = terms.slice(0, i).map((t, j) => `${t.column} = ${placeholders[j]}`);
    return [...equalities, `${term.column} ${term.descending ? '<' : '>'} ${placeholders[i]}`].join(' and ');
  });
  return `(${branches.map((b) => `(${b})`).join(' or ')})`;
};

export const orderByClause = (terms: SortTerm[]): string =>
  terms.map((t) => `${t.column} ${t.descending ? 'desc' : 'asc'}`).join(', ');

/** Fetch `limit + 1` rows; the extra one only says whether another page exists. */
export const pageOf = <Row>(
  rows: Row[],
  limit: number,
  total: number,
  nextCursor: (last: Row) => string,
): { items: Row[]; pagination: TPagination } => {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const hasMore = rows.length > limit;
  return { items, pagination: { hasMore, nextCursor: hasMore && last ? nextCursor(last) : null, total } };
};

/** A `where` clause built from optional filters, numbering its parameters as it grows. */
export class Filters {
  readonly params: unknown[] = [];
  readonly #clauses: string[] = [];

  /** `sql` receives the placeholder (`$3`) of `value`. */
  add(sql: (placeholder: string) => string, value: unknown): this {
    this.params.push(value);
    this.#clauses.push(sql(`$${this.params.length}`));
    return this;
  }

  /** A condition without a parameter. */
  always(sql: string): this {
    this.#clauses.push(sql);
    return this;
  }

  /** The shared creation window of every list: `createdAfter` inclusive, `createdBefore` exclusive. */
  createdWindow(query: { createdAfter?: string; createdBefore?: string }, column = 'created_at'): this {
    return this.instantAtLeast(column, query.createdAfter, 'query.createdAfter').instantBefore(
      column,
      query.createdBefore,
      'query.createdBefore',
    );
  }

  /** `column >= at` for a validated instant (contract `instantInput`), sent as UTC: an offset never reaches SQL. */
  instantAtLeast(column: string, at: string | undefined, field: string): this {
    return at ? this.add((p) => `${column} >= ${p}::timestamptz`, utcInstant(at, field)) : this;
  }

  /** `column < at`, likewise. */
  instantBefore(column: string, at: string | undefined, field: string): this {
    return at ? this.add((p) => `${column} < ${p}::timestamptz`, utcInstant(at, field)) : this;
  }

  get sql(): string {
    return this.#clauses.length ? this.#clauses.join(' and ') : 'true';
  }
}

export interface KeysetList<Row> {
  cursors: CursorCodec;
  /** What a cursor of this list is bound to: the table and whose rows (`alerts:usr_…`); the sort is added. */
  list: string;
  table: string;
  columns: string;
  filters: Filters;
  sortColumns: Record<string, SortableColumn>;
  query: { sort: string; limit: number; cursor?: string };
  /** The value of `field` (a sort field, or `id`) in `row`, as the cursor stores it. */
  cursorValue: (row: Row, field: string) => string | null;
}

/** One page of any table listed by a sort of its columns: keyset cursor, `limit + 1` look-ahead, total count. */
export const keysetPage = async <Row>(
  db: Queryable,
  list: KeysetList<Row>,
): Promise<{ items: Row[]; pagination: TPagination }> => {
  const { query, filters } = list;
  const terms = parseSort(query.sort, list.sortColumns);
  const params = [...filters.params];
  const cursorFilter = query.cursor
    ? ` and ${afterCursorCondition(terms, decodeKeysetCursor(list.cursors, list.list, query.cursor, query.sort, terms), params)}`
    : '';
  params.push(query.limit + 1);
  const { rows } = await db.query<Row>(
    `select ${list.columns} from ${list.table} where ${filters.sql}${cursorFilter}
     order by ${orderByClause(terms)} limit $${params.length}`,
    params,
  );
  const count = await db.query<{ total: number | string }>(
    `select count(*)::int as total from ${list.table} where ${filters.sql}`,
    filters.params,
  );
  return pageOf(rows, query.limit, Number(count.rows[0]?.total ?? 0), (row) =>
    encodeKeysetCursor(
      list.cursors,
      list.list,
      query.sort,
      terms.map((t) => list.cursorValue(row, t.field)),
    ),
  );
};

/** Cursor values of rows whose only sort field is `createdAt`. */
export const createdAtCursorValue = (row: { id: string; created_at: Date }, field: string): string =>
  field === 'createdAt' ? new Date(row.created_at).toISOString() : row.id;
