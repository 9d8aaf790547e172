import type { Queryable } from '../../db/db.ts';

/** Clients with entries older than `cutoff` (the BRIN index on time finds old block ranges only). */
export const clientsWithEntriesBefore = async (db: Queryable, cutoff: Date): Promise<string[]> => {
  const { rows } = await db.query<{ client_id: string }>(
    'select distinct client_id from audit_events where occurred_at < $1 order by client_id',
    [cutoff],
  );
  return rows.map((r) => r.client_id);
};

/** Holds the client's chain head until the transaction ends: appends and other pruners of the client wait. */
export const lockChainHead = async (tx: Queryable, clientId: string): Promise<{ seq: number } | undefined> => {
  const { rows } = await tx.query<{ seq: string | number }>('select seq from audit_heads where client_id = $1 for update', [
    clientId,
  ]);
  return rows[0] ? { seq: Number(rows[0].seq) } : undefined;
};

/** The first entry after `afterSeq` that is young enough to keep, if any: the pruned prefix ends before it. */
export const firstKeptSeq = async (tx: Queryable, clientId: string, afterSeq: number, cutoff: Date): Promise<number | null> => {
  const { rows } = await tx.query<{ seq: string | number }>(
    'select seq from audit_events where client_id = $1 and seq > $2 and occurred_at >= $3 order by seq limit 1',
    [clientId, afterSeq, cutoff],
  );
  return rows[0] ? Number(rows[0].seq) : null;
};

export const deleteEntriesThrough = async (tx: Queryable, clientId: string, lastSeq: number): Promise<number> => {
  const { rowCount } = await tx.query('delete from audit_events where client_id = $1 and seq <= $2', [clientId, lastSeq]);
  return rowCount;
};

/** Verification checkpoints inside a pruned prefix: a check starts at the retention checkpoint there anyway. */
export const deleteVerifiedCheckpointsThrough = async (tx: Queryable, clientId: string, lastSeq: number): Promise<void> => {
  await tx.query('delete from audit_verify_checkpoints where client_id = $1 and seq <= $2', [clientId, lastSeq]);
};
