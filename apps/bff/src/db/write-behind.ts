import pgUtils from 'pg/lib/utils.js';
import type { Queryable } from './db.ts';

// CommonJS: its names are read from the default export.
const { escapeLiteral, prepareValue } = pgUtils;

/** A write whose answer no one reads: the only statements that can wait. */
const PLAIN_WRITE = /^\s*(insert|update|delete)\s/i;

/** A parameter as PostgreSQL would have read it: the text the driver sends, quoted, typed by its context as `$n` is. */
const literal = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  // bytea would need its own escape form; no held write carries one.
  if (Buffer.isBuffer(value)) throw new TypeError('a held write cannot carry binary data');
  const prepared = prepareValue(value);
  if (prepared === null) return 'NULL';
  const text = String(prepared);
  // Most values (ids, dates, sealed base64) hold neither quote nor backslash: quoted as they are, without a scan per character.
  return text.includes("'") || text.includes('\\') ? escapeLiteral(text) : `'${text}'`;
};

const inline = (sql: string, params: unknown[]) => sql.replace(/\$(\d+)/g, (_match, n: string) => literal(params[Number(n) - 1]));

/** A parameter, optionally cast: what a mergeable insert's tuple may hold. */
const PARAMETER = String.raw`\$\d+(?:::[a-z_]+(?:\[\])?)?`;
const TUPLE = new RegExp(String.raw`\(\s*${PARAMETER}(?:\s*,\s*${PARAMETER})*\s*\)`, 'iy');
/** `insert into t (columns) values (…), (…) [tail]` whose tuples hold parameters only and whose tail holds none. */
const INSERT_HEAD = /^\s*insert\s+into\s+([a-z_]+)\s*\(([^()]*)\)\s*values\s*/i;

interface MergedInsert {
  /** Matches a statement that names the insert's table. */
  naming: RegExp;
  /** The statement up to `values`, the tuple's shape and the tail: rows of one key share one statement. */
  key: string;
  head: string;
  tail: string;
  tuples: string[];
}

/** Splits an insert into its head, tuple templates and tail, or undefined when it is not of the mergeable shape. */
const mergeableInsert = (sql: string) => {
  const head = INSERT_HEAD.exec(sql);
  if (!head?.[1]) return undefined;
  const tuples: string[] = [];
  let at = head[0].length;
  for (;;) {
    TUPLE.lastIndex = at;
    const tuple = TUPLE.exec(sql);
    if (!tuple) break;
    tuples.push(tuple[0]);
    at = TUPLE.lastIndex;
    const comma = /^\s*,\s*/.exec(sql.slice(at));
    if (!comma) break;
    at += comma[0].length;
  }
  const tail = sql.slice(at);
  if (tuples.length === 0 || tail.includes('$') || /\breturning\b/i.test(tail)) return undefined;
  const shape = tuples[0]?.replace(/\$\d+/g, '$') ?? '';
  if (tuples.some((tuple) => tuple.replace(/\$\d+/g, '$') !== shape)) return undefined;
  return { table: head[1].toLowerCase(), head: head[0], tuples, tail, key: `${head[0]}|${shape}|${tail}` };
};

/**
 * A transaction whose plain writes (insert, update or delete without `returning`) are held back and sent together, as
 * statements of one simple query, when anything else is asked or at `flush`: a group commit of many customers then
 * costs a few round trips instead of several per customer. Writes run in order, so two writes of one row behave as
 * they would one by one. Inserts into a table of `mergeInto` of one shape (the same columns, parameter tuples and
 * tail, e.g. each customer's snapshot) join one multi-row insert, planned and run once instead of once per customer,
 * while no other held write names that table: its later rows then run before writes to other tables held between
 * them, so only tables whose rows reference none of the transaction's other writes belong there. A held write's error surfaces at the flush that sends it, so only code
 * that never catches a write's error may run on it (a group commit retries its customers one by one). Parameters are
 * inlined as quoted literals (the text the driver would send), so a statement must not contain a literal `$`.
 */
export class WriteBehind implements Queryable {
  #held: (string | MergedInsert)[] = [];
  /** Merged inserts more rows may still join, by key. */
  #open = new Map<string, MergedInsert>();

  readonly #mergeInto: ReadonlySet<string>;

  constructor(
    private readonly tx: Queryable,
    options: { mergeInto?: readonly string[] } = {},
  ) {
    this.#mergeInto = new Set(options.mergeInto ?? []);
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
    if (PLAIN_WRITE.test(sql) && !/\breturning\b/i.test(sql)) {
      this.hold(sql, params);
      return { rows: [], rowCount: 0 };
    }
    await this.flush();
    return this.tx.query<T>(sql, params);
  }

  async exec(sql: string): Promise<void> {
    await this.flush();
    await this.tx.exec(sql);
  }

  /** Holds a statement that must wait even though it is no plain write (a StatementBatch's parts, one by one). */
  hold(sql: string, params: unknown[]): void {
    const parsed = this.#mergeInto.size > 0 && PLAIN_WRITE.test(sql) ? mergeableInsert(sql) : undefined;
    const insert = parsed && this.#mergeInto.has(parsed.table) ? parsed : undefined;
    this.#closeNaming(sql, insert?.key);
    if (!insert) {
      this.#held.push(inline(sql, params));
      return;
    }
    const rows = insert.tuples.map((tuple) => inline(tuple, params));
    const open = this.#open.get(insert.key);
    if (open) {
      open.tuples.push(...rows);
      return;
    }
    const naming = new RegExp(String.raw`\b${insert.table}\b`, 'i');
    const merged: MergedInsert = { naming, key: insert.key, head: insert.head, tail: insert.tail, tuples: rows };
    this.#held.push(merged);
    this.#open.set(insert.key, merged);
  }

  /** A write that names an open insert's table ends that insert's merging: rows held after it must run after it. */
  #closeNaming(sql: string, except: string | undefined): void {
    for (const [key, open] of this.#open) {
      if (key !== except && open.naming.test(sql)) this.#open.delete(key);
    }
  }

  async flush(): Promise<void> {
    if (this.#held.length === 0) return;
    const sql = this.#held
      .map((held) => (typeof held === 'string' ? held : `${held.head}${held.tuples.join(', ')}${held.tail}`))
      .join(';\n');
    this.#held = [];
    this.#open.clear();
    await this.tx.exec(sql);
  }
}

export const isWriteBehind = (q: Queryable): q is WriteBehind => q instanceof WriteBehind;
