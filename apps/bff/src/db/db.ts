/** What repositories need from a database: parameterised SQL and transactions. Same SQL on PGlite and PostgreSQL. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[]; rowCount: number }>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Inside a transaction (the `tx` of `Db.transaction`): runs `callback` once the transaction has committed (never
   * after a rollback), e.g. to tell another part of the process that committed rows are there to read.
   */
  afterCommit?(callback: () => void): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (after the notifying transaction commits); answers
   * the unsubscribe function. A listener can drop: `onConnection(false)` says notifications may be missed from now
   * on, `onConnection(true)` that they arrive again (after a reconnect). `close()` ends every listener.
   */
  listen?(
    channel: string,
    onNotify: (payload: string) => void,
    onConnection?: (connected: boolean) => void,
  ): Promise<() => Promise<void>>;
}

/** PostgreSQL's unique_violation: the caller lost a race for a unique key. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return false;
  return !constraint || e.constraint === constraint || Boolean(e.message?.includes(constraint));
};
