import type { Db, Queryable } from '../../db/db.ts';
import { appendEntries } from './append-repo.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import { asEventRecord } from './chain-repo.ts';
import type { ChainedEntry, PendingEntry } from './entry.ts';

export interface ChainHead {
  seq: number;
  hash: string;
}

/** The client's head, created at the genesis the first time. */
const readHead = async (db: Queryable, clientId: string): Promise<ChainHead> => {
  await db.query(`insert into audit_heads (client_id, seq, hash) values ($1, 0, $2) on conflict (client_id) do nothing`, [
    clientId,
    GENESIS_HASH,
  ]);
  const { rows } = await db.query<{ seq: string | number; hash: string }>(
    'select seq, hash from audit_heads where client_id = $1',
    [clientId],
  );
  const row = rows[0];
  if (!row) throw new Error(`audit head of ${clientId} vanished`);
  return { seq: Number(row.seq), hash: row.hash };
};

const chainFrom = (head: ChainHead, entries: PendingEntry[]): ChainedEntry[] => {
  let previous = head;
  return entries.map((entry) => {
    const seq = previous.seq + 1;
    const hash = entryHash(entry, seq, previous.hash);
    const chained = { ...entry, seq, prevHash: previous.hash, hash };
    previous = { seq, hash };
    return chained;
  });
};

// One statement, so one round trip and its own transaction: the head moves from the sequence the entries were chained
// on, or nothing happens (another writer moved it first; the caller re-reads the head and chains again).
const CONDITIONAL_APPEND = `
  with moved as (
    update audit_heads set seq = $2, hash = $3 where client_id = $1 and seq = $4 returning client_id
  )
  insert into audit_events
    (client_id, seq, id, type, actor_kind, actor_id, user_id, request_id, subject, occurred_at, prev_hash, hash)
  select e.client_id, e.seq, e.id, e.type, e.actor_kind, e.actor_id, e.user_id, e.request_id, e.subject, e.occurred_at,
         e.prev_hash, e.hash
  from json_populate_recordset(null::audit_events, $5::json) e
  where exists (select 1 from moved)`;

// Optimistic attempts before taking the head's lock: another writer of the same client (an API process, the chainer) moved the head under us this often, so wait for it instead of racing it again.
const OPTIMISTIC_ATTEMPTS = 3;

/**
 * Appends one client's entries without holding a lock across round trips: chained on the head this writer last saw
 * (`heads`, kept up to date here), written by one statement that moves the head only if it is still there. After a
 * few lost races it appends under the head's row lock instead (appendEntries, as the chainer does),
 * which always succeeds.
 */
export const appendToClientChain = async (
  db: Db,
  clientId: string,
  entries: PendingEntry[],
  heads: Map<string, ChainHead>,
): Promise<void> => {
  for (let attempt = 0; attempt < OPTIMISTIC_ATTEMPTS; attempt++) {
    const head = heads.get(clientId) ?? (await readHead(db, clientId));
    const chained = chainFrom(head, entries);
    const last = chained.at(-1) as ChainedEntry;
    const { rowCount } = await db.query(CONDITIONAL_APPEND, [
      clientId,
      last.seq,
      last.hash,
      head.seq,
      JSON.stringify(chained.map(asEventRecord)),
    ]);
    if (rowCount === entries.length) {
      heads.set(clientId, { seq: last.seq, hash: last.hash });
      return;
    }
    heads.delete(clientId);
  }
  const chained = await db.transaction((tx) => appendEntries(tx, entries));
  const last = chained.at(-1) as ChainedEntry;
  heads.set(clientId, { seq: last.seq, hash: last.hash });
};
