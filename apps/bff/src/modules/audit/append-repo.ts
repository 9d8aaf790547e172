import type { Queryable } from '../../db/db.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import { asEventRecord } from './chain-repo.ts';
import type { ChainedEntry, PendingEntry } from './entry.ts';

/**
 * Appends entries to their clients' chains inside the chainer's `tx`: each client's head row is locked (`for update`,
 * in client id order so two writers never deadlock) until `tx` commits, so appends of one client are serialised across
 * every instance, and the head moves in the same statement as the entries are inserted.
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
  // The entries as one JSON parameter (one native stringify, parsed by the database) rather than twelve arrays, each
  // element of which the driver would escape one by one: about a third of the chaining's CPU per entry.
  await tx.query(
    `with appended as (
       insert into audit_events
         (client_id, seq, id, type, actor_kind, actor_id, user_id, request_id, subject, occurred_at, prev_hash, hash)
       select e.client_id, e.seq, e.id, e.type, e.actor_kind, e.actor_id, e.user_id, e.request_id, e.subject,
              e.occurred_at, e.prev_hash, e.hash
       from json_populate_recordset(null::audit_events, $1::json) e
     )
     update audit_heads h set seq = v.seq, hash = v.hash
     from unnest($2::text[], $3::bigint[], $4::text[]) as v(client_id, seq, hash) where h.client_id = v.client_id`,
    [
      JSON.stringify(chained.map(asEventRecord)),
      clients,
      clients.map((c) => head.get(c)?.seq),
      clients.map((c) => head.get(c)?.hash),
    ],
  );
  return chained;
};
