import type { Queryable } from './db.ts';
import { isWriteBehind } from './write-behind.ts';

/** Only plain writes can join a batch: their results are never read, and a data-modifying `WITH` must be top level. */
const BATCHABLE = /^\s*(insert|update|delete)\s/i;

/**
 * A transaction of plain writes sent as ONE statement: each write becomes a data-modifying CTE of
 * `with s0 as (…), s1 as (…) select …`, its `$n` parameters renumbered. PostgreSQL runs every CTE exactly once and to
 * completion, and one statement is atomic without `begin`/`commit`: all the writes commit together or none does (a
 * unique or foreign-key violation fails the whole statement, with its constraint named as usual; foreign keys between
 * the writes hold, as they are checked at the statement's end). So an enrolment's four writes cost one round trip
 * to the database instead of six (begin, four statements, commit).
 *
 * Hand it to repository functions in place of a transaction: `query` records the statement and answers no rows (a
 * statement whose rows are read cannot join; it throws), `afterCommit` runs once the statement succeeded, and
 * `notifyOnCommit` adds a NOTIFY to the final select. Parameters are found as `$n` anywhere in the text, so a
 * batched statement must not contain a literal `$`. Run inside a transaction, it sends writes that two modules' repos
 * make (a pull's snapshot and the user's schedule) as one statement; `afterCommit` then runs when the statement ends.
 */
export class StatementBatch implements Queryable {
  readonly #statements: { sql: string; params: unknown[] }[] = [];
  readonly #channels = new Set<string>();
  readonly #committed: (() => void)[] = [];

  async query<T>(sql: string, params: unknown[] = []): Promise<{ rows: T[]; rowCount: number }> {
    if (!BATCHABLE.test(sql) || /\breturning\b/i.test(sql)) {
      throw new Error(`only plain insert, update and delete statements join a StatementBatch: ${sql.slice(0, 60)}`);
    }
    this.#statements.push({ sql, params });
    return { rows: [], rowCount: 0 };
  }

  async exec(): Promise<void> {
    throw new Error('exec cannot join a StatementBatch');
  }

  afterCommit(callback: () => void): void {
    this.#committed.push(callback);
  }

  /** NOTIFY `channel` (an identifier of ours, never input) when the batch commits. */
  notifyOnCommit(channel: string): void {
    this.#channels.add(channel);
  }

  /** Sends the batch as one statement (nothing when it is empty), then runs the `afterCommit` callbacks. */
  async run(db: Queryable): Promise<void> {
    if (this.#statements.length === 0) return;
    if (isWriteBehind(db)) {
      // Held one by one, sent with the transaction's other writes: no combined statement needed.
      for (const statement of this.#statements) db.hold(statement.sql, statement.params);
      for (const channel of this.#channels) db.hold(`select pg_notify('${channel}', '')`, []);
      for (const callback of this.#committed) callback();
      return;
    }
    const params: unknown[] = [];
    const parts = this.#statements.map((statement, i) => {
      const offset = params.length;
      params.push(...statement.params);
      return `s${i} as (${statement.sql.replace(/\$(\d+)/g, (_match, n: string) => `$${Number(n) + offset}`)})`;
    });
    const notify = [...this.#channels].map((channel) => `pg_notify('${channel}', '')`);
    await db.query(`with ${parts.join(', ')} select ${notify.length ? notify.join(', ') : '1'}`, params);
    for (const callback of this.#committed) callback();
  }
}

export const isStatementBatch = (q: Queryable): q is StatementBatch => q instanceof StatementBatch;
