import type { Queryable } from '../../db/db.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import type { ChainedEntry, PendingEntry } from './entry.ts';

/**
 * Appends entries to their clients' chains inside `tx` (a business transaction's own entries): each client's head row
 * is locked (`for update`, in client id order so two writers never deadlock) until `tx` commits, so appends of one
 * client are serialised across every instance, and the head moves in the same statement as the entries are inserted.
 */
export const appendEntries = async (tx: Queryable, entries: PendingEntry[]): Promise<ChainedEntry[]> => {
  if (entries.length === 0) return [];
  const clients = [...new Set(entries.map((e) => e.clientId))].sort();
  await tx.query(
    `insert into audit_heads (client_id, seq, hash)
     select c, 0, $2 from unnest($1::text[]) as c order by c on conflict (client_id) do nothing`,
    [clients, GENESIS_HASH],
  );
  const { rows: heads } = await tx.query<{ client_id: string; seq: string | number; hash: string }>(
    'select client_id, seq, hash from audit_heads where client_id = any($1::text[]) order by client_id for update',
    [clients],
  );
  const head = new Map(heads.map((h) => [h.client_id, { seq: Number(h.seq), hash: h.hash }]));
  const chained = entries.map((entry): ChainedEntry => {
    const previous = head.get(entry.clientId) ?? { seq: 0, hash: GENESIS_HASH };
    const seq = previous.seq + 1;
    const hash = entryHash(entry, seq, previous.hash);
    head.set(entry.clientId, { seq, hash });
    return { ...entry, seq, prevHash: previous.hash, hash };
  });
  await tx.query(
    `with appended as (
       insert into audit_events
         (client_id, seq, id, type, actor_kind, actor_id, user_id, request_id, subject, occurred_at, prev_hash, hash)
       select * from unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::text[], $9::jsonb[], $10::timestamptz[], $11::text[], $12::text[])
     )
     update audit_heads h set seq = v.seq, hash = v.hash
     from unnest($13::text[], $14::bigint[], $15::text[]) as v(client_id, seq, hash) where h.client_id = v.client_id`,
    [
      chained.map((e) => e.clientId),
      chained.map((e) => e.seq),
      chained.map((e) => e.id),
      chained.map((e) => e.type),
      chained.map((e) => e.actorKind),
      chained.map((e) => e.actorId),
      chained.map((e) => e.userId),
      chained.map((e) => e.requestId),
      chained.map((e) => JSON.stringify(e.subject)),
      chained.map((e) => e.occurredAt.toISOString()),
      chained.map((e) => e.prevHash),
      chained.map((e) => e.hash),
      clients,
      clients.map((c) => head.get(c)?.seq),
      clients.map((c) => head.get(c)?.hash),
    ],
  );
  return chained;
};
