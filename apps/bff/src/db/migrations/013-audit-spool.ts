/**
 * The audit trail's spool (modules/audit/spool.ts): a recorded read is answered once its batch's ONE row here is
 * committed; the chainer moves the rows into their clients' hash chains (audit_events) shortly after, deleting them in
 * the same transaction. No chaining, no secondary index: the cheapest durable write per batch of reads.
 */
export const sql = `
create table audit_spool (
  id bigserial primary key,
  -- The batch's entries as one JSON array of arrays (modules/audit/spool-entry.ts names the positions).
  entries text not null
);
`;
