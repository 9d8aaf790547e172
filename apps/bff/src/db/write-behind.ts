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

/**
 * A transaction whose plain writes (insert, update or delete without `returning`) are held back and sent together, as
 * separate statements of one simple query, when anything else is asked or at `flush`: a group commit of many customers
 * then costs a few round trips instead of several per customer. Each write stays its own statement, run in order, so
 * two writes of one row behave as they would one by one. A held write's error surfaces at the flush that sends it, so
 * only code that never catches a write's error may run on it. Parameters are inlined as quoted literals (the text the
 * driver would send), so a statement must not contain a literal `$`.
 */
export class WriteBehind implements Queryable {
  #held: string[] = [];

  constructor(private readonly tx: Queryable) {}

  async query<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
    if (PLAIN_WRITE.test(sql) && !/\breturning\b/i.test(sql)) {
      this.#held.push(inline(sql, params));
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
    this.#held.push(inline(sql, params));
  }

  async flush(): Promise<void> {
    if (this.#held.length === 0) return;
    const sql = this.#held.join(';\n');
    this.#held = [];
    await this.tx.exec(sql);
  }
}

export const isWriteBehind = (q: Queryable): q is WriteBehind => q instanceof WriteBehind;
