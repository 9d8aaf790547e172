import type { Queryable } from '../../db/db.ts';
import type { SpooledEntry } from './spool-entry.ts';

/** One batch of entries, one row, one statement (autocommitted, or in the caller's transaction): durable once committed. */
export const insertSpoolBatch = async (db: Queryable, entriesJson: string): Promise<void> => {
  await db.query('insert into audit_spool (entries) values ($1)', [entriesJson]);
};

/** Whether anything waits to be chained (a cheap look before a chaining transaction). */
export const spoolHasRows = async (db: Queryable): Promise<boolean> => {
  const { rows } = await db.query('select 1 from audit_spool limit 1');
  return rows.length > 0;
};

/** The ids of the oldest and newest spooled batches, or null when the spool is empty. */
export const spoolBounds = async (db: Queryable): Promise<{ oldest: bigint; newest: bigint } | null> => {
  const { rows } = await db.query<{ oldest: string | number | null; newest: string | number | null }>(
    'select min(id) as oldest, max(id) as newest from audit_spool',
  );
  const row = rows[0];
  if (!row || row.oldest === null || row.newest === null) return null;
  return { oldest: BigInt(row.oldest), newest: BigInt(row.newest) };
};

/** The oldest spooled batches, in spool order; the caller deletes them in the transaction that chains them. */
export const oldestSpoolBatches = async (tx: Queryable, limit: number): Promise<{ ids: string[]; entries: SpooledEntry[] }> => {
  const { rows } = await tx.query<{ id: string | number; entries: string }>(
    'select id, entries from audit_spool order by id limit $1',
    [limit],
  );
  const entries: SpooledEntry[] = [];
  for (const row of rows) for (const entry of JSON.parse(row.entries) as SpooledEntry[]) entries.push(entry);
  return { ids: rows.map((r) => String(r.id)), entries };
};

export const deleteSpoolBatches = async (tx: Queryable, ids: string[]): Promise<void> => {
  await tx.query('delete from audit_spool where id = any($1::bigint[])', [ids]);
};

// Any fixed 64-bit number shared by every instance: one chainer at a time, so spooled batches join the chains in
// spool order, and a caller that drains (the list, the CLI) waits for a pass in flight instead of skipping its rows.
const CHAIN_LOCK_ID = 7_310_442_919;

/** Takes the chainer's lock for the rest of the transaction `tx`. */
export const lockChainer = async (tx: Queryable): Promise<void> => {
  await tx.query('select pg_advisory_xact_lock($1)', [CHAIN_LOCK_ID]);
};
