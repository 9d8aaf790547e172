import pgUtils from 'pg/lib/utils.js';
import type { Queryable } from './db.ts';

// CommonJS: its names are read from the default export.
const { escapeLiteral, prepareValue } = pgUtils;

/** A write whose answer no one reads: the only statements that can wait. */
const PLAIN_WRITE = /^\s*(insert|update|delete)\s/i;
/** db/notify.ts's NOTIFY: delivered at commit, its answer is an empty row no one reads, so it waits like a write. */
const NOTIFY = /^select pg_notify\(\$1, \$2\)$/;

/** A date the ISO form writes as the driver would: in UTC, in years 1–9999 (outside them the driver writes BC or more digits). */
const isPlainUtcDate = (date: Date) => {
  const year = date.getUTCFullYear();
  return date.getTimezoneOffset() === 0 && year >= 1 && year <= 9999;
};

/** A parameter as PostgreSQL would have read it: the text the driver sends, quoted, typed by its context as `$n` is. */
const literal = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') return `'${value}'`;
  // bytea would need its own escape form; no held write carries one.
  if (Buffer.isBuffer(value)) throw new TypeError('a held write cannot carry binary data');
  // The driver writes a date in the process's zone; in UTC that is the ISO form, without its slower formatting.
  const prepared = value instanceof Date && isPlainUtcDate(value) ? value.toISOString() : prepareValue(value);
  if (prepared === null) return 'NULL';
  const text = typeof prepared === 'string' ? prepared : String(prepared);
  // Most values (ids, dates, sealed base64) hold neither quote nor backslash: quoted as they are, without a scan per character.
  return text.includes("'") || text.includes('\\') ? escapeLiteral(text) : `'${text}'`;
};

/** A statement's text cut at its `$n` parameters: inlining joins the parts with the values, no regex per call. */
interface Template {
  parts: string[];
  /** Each gap's parameter index (0-based). */
  params: number[];
}

const templateOf = (sql: string): Template => {
  const parts: string[] = [];
  const params: number[] = [];
  let last = 0;
  for (const match of sql.matchAll(/\$(\d+)/g)) {
    parts.push(sql.slice(last, match.index));
    params.push(Number(match[1]) - 1);
    last = match.index + match[0].length;
  }
  parts.push(sql.slice(last));
  return { parts, params };
};

const inline = ({ parts, params }: Template, values: unknown[]): string => {
  let text = parts[0] ?? '';
  for (let i = 0; i < params.length; i++) text += literal(values[params[i] ?? 0]) + (parts[i + 1] ?? '');
  return text;
};

/** A parameter, optionally cast: what a mergeable insert's tuple may hold. */
const PARAMETER = String.raw`\$\d+(?:::[a-z_]+(?:\[\])?)?`;
const TUPLE = new RegExp(String.raw`\(\s*${PARAMETER}(?:\s*,\s*${PARAMETER})*\s*\)`, 'iy');
const TUPLE_SEPARATOR = /\s*,\s*/y;
/** `insert into t (columns) values (…), (…) [tail]` whose tuples hold parameters only and whose tail holds none. */
const INSERT_HEAD = /^\s*insert\s+into\s+([a-z_]+)\s*\(([^()]*)\)\s*values\s*/i;

/**
 * `insert into t (columns) select * from unnest($1::type[], …)`: rows given as one array per column, so two such inserts
 * of one text merge by joining their arrays, and PostgreSQL parses a few array literals instead of a literal per value.
 */
const COLUMNAR_INSERT = new RegExp(
  String.raw`^\s*insert\s+into\s+([a-z_]+)\s*\([^()]*\)\s*select\s+\*\s+from\s+unnest\(\s*\$\d+::[a-z_]+\[\]` +
    String.raw`(?:\s*,\s*\$\d+::[a-z_]+\[\])*\s*\)\s*$`,
  'i',
);

/**
 * Parameters that join by concatenation: one array per parameter, all as long. unnest pads shorter arrays with NULLs,
 * so joining unequal ones would move a later insert's values into an earlier insert's rows.
 */
const isColumns = (params: unknown[], template: Template): params is unknown[][] => {
  const rows = Array.isArray(params[0]) ? params[0].length : -1;
  return (
    params.length === new Set(template.params).size &&
    template.params.every((index) => index < params.length) &&
    params.every((values) => Array.isArray(values) && values.length === rows)
  );
};

/** Columnar inserts of one text held as one: each parameter's arrays joined, in the order they were held. */
interface MergedColumns {
  table: string;
  key: string;
  template: Template;
  /** By parameter index: the rows' values of that column. */
  columns: unknown[][];
}

interface MergedInsert {
  /** The table the rows go to: a later write naming it ends the merging. */
  table: string;
  /** The statement up to `values`, the tuple's shape and the tail: rows of one key share one statement. */
  key: string;
  head: string;
  tail: string;
  tuples: string[];
}

/** An insert cut into its head, tuple templates and tail. */
interface MergeableInsert {
  table: string;
  head: string;
  tail: string;
  key: string;
  tuples: Template[];
}

/** Splits an insert into its head, tuple templates and tail, or undefined when it is not of the mergeable shape. */
const mergeableInsert = (sql: string): MergeableInsert | undefined => {
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
    TUPLE_SEPARATOR.lastIndex = at;
    if (!TUPLE_SEPARATOR.exec(sql)) break;
    at = TUPLE_SEPARATOR.lastIndex;
  }
  const tail = sql.slice(at);
  if (tuples.length === 0 || tail.includes('$') || /\breturning\b/i.test(tail)) return undefined;
  const shape = tuples[0]?.replace(/\$\d+/g, '$') ?? '';
  if (tuples.some((tuple) => tuple.replace(/\$\d+/g, '$') !== shape)) return undefined;
  return {
    table: head[1].toLowerCase(),
    head: head[0],
    tuples: tuples.map(templateOf),
    tail,
    key: `${head[0]}|${shape}|${tail}`,
  };
};

/** What holding a statement needs to know of its text, worked out once per distinct text. */
interface Plan {
  /** A write whose answer no one reads: it may wait. */
  plain: boolean;
  template: Template;
  /** Lower-case words of the text: which tables it may name. */
  words: ReadonlySet<string>;
  insert: MergeableInsert | undefined;
  /** The table of a columnar insert (COLUMNAR_INSERT). */
  columnarTable: string | undefined;
}

/** Statement texts come from a fixed set of templates (a tuple count varies), so a small cache holds them all. */
const PLAN_CACHE_SIZE = 512;
const plans = new Map<string, Plan>();

const planOf = (sql: string): Plan => {
  let plan = plans.get(sql);
  if (plan) return plan;
  const plain = PLAIN_WRITE.test(sql);
  plan = {
    plain: (plain && !/\breturning\b/i.test(sql)) || NOTIFY.test(sql),
    template: templateOf(sql),
    words: new Set(sql.toLowerCase().match(/[a-z_][a-z0-9_]*/g) ?? []),
    insert: plain ? mergeableInsert(sql) : undefined,
    columnarTable: plain ? COLUMNAR_INSERT.exec(sql)?.[1]?.toLowerCase() : undefined,
  };
  if (plans.size >= PLAN_CACHE_SIZE) plans.clear();
  plans.set(sql, plan);
  return plan;
};

/**
 * A transaction whose plain writes (insert, update or delete without `returning`, and db/notify.ts's NOTIFY) are held
 * back and sent together, as statements of one simple query, when anything else is asked or at `flush`: a group commit
 * of many customers then costs a few round trips instead of several per customer. Writes run in order, so two writes
 * of one row behave as they would one by one. Inserts into a table of `mergeInto` of one shape (the same columns,
 * parameter tuples and tail, e.g. each customer's snapshot) join one multi-row insert, and columnar inserts of one text
 * (COLUMNAR_INSERT, e.g. each customer's scores) one insert of joined arrays, planned and run once instead of once per
 * customer, while no other held write names that table: its later rows then run before writes to other tables held
 * between them, so only tables whose rows reference none of the transaction's other writes belong there. A held
 * write's error surfaces at the flush that sends it, so only code that never catches a write's error may run on it (a
 * group commit retries its customers one by one). Parameters are inlined as quoted literals (the text the driver would
 * send), so a statement must not contain a literal `$`.
 */
export class WriteBehind implements Queryable {
  #held: (string | MergedInsert | MergedColumns)[] = [];
  /** Merged inserts more rows may still join, by key. */
  #open = new Map<string, MergedInsert | MergedColumns>();

  readonly #mergeInto: ReadonlySet<string>;

  constructor(
    private readonly tx: Queryable,
    options: { mergeInto?: readonly string[] } = {},
  ) {
    this.#mergeInto = new Set(options.mergeInto ?? []);
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
    if (planOf(sql).plain) {
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
    const plan = planOf(sql);
    if (plan.columnarTable && this.#mergeInto.has(plan.columnarTable) && isColumns(params, plan.template)) {
      this.#holdColumns(plan, plan.columnarTable, sql, params);
      return;
    }
    const insert = plan.insert && this.#mergeInto.has(plan.insert.table) ? plan.insert : undefined;
    this.#closeNaming(plan.words, insert?.key);
    if (!insert) {
      this.#held.push(inline(plan.template, params));
      return;
    }
    const rows = insert.tuples.map((tuple) => inline(tuple, params));
    const open = this.#open.get(insert.key);
    if (open && 'tuples' in open) {
      for (const row of rows) open.tuples.push(row);
      return;
    }
    const merged: MergedInsert = { table: insert.table, key: insert.key, head: insert.head, tail: insert.tail, tuples: rows };
    this.#held.push(merged);
    this.#open.set(insert.key, merged);
  }

  #holdColumns(plan: Plan, table: string, sql: string, params: unknown[][]): void {
    const key = `columns|${sql}`;
    this.#closeNaming(plan.words, key);
    const open = this.#open.get(key);
    if (open && 'columns' in open) {
      params.forEach((values, i) => {
        const column = open.columns[i] ?? [];
        for (const value of values) column.push(value);
      });
      return;
    }
    const merged: MergedColumns = { table, key, template: plan.template, columns: params.map((values) => [...values]) };
    this.#held.push(merged);
    this.#open.set(key, merged);
  }

  /** A write that names an open insert's table ends that insert's merging: rows held after it must run after it. */
  #closeNaming(words: ReadonlySet<string>, except: string | undefined): void {
    for (const [key, open] of this.#open) {
      if (key !== except && words.has(open.table)) this.#open.delete(key);
    }
  }

  async flush(): Promise<void> {
    if (this.#held.length === 0) return;
    const sql = this.#held
      .map((held) => {
        if (typeof held === 'string') return held;
        if ('columns' in held) return inline(held.template, held.columns);
        return `${held.head}${held.tuples.join(', ')}${held.tail}`;
      })
      .join(';\n');
    this.#held = [];
    this.#open.clear();
    await this.tx.exec(sql);
  }
}

export const isWriteBehind = (q: Queryable): q is WriteBehind => q instanceof WriteBehind;
