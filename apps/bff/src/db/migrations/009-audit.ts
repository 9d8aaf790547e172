/**
 * The audit trail (modules/audit): per client, an append-only hash chain of who did or read what. Each entry carries
 * the hash of the client's previous entry and its own; the head row is what appends lock (one writer per client at a
 * time, across instances) and what verification compares the chain's end with; a checkpoint stands in for a pruned
 * prefix (the last pruned entry's sequence and hash, HMAC-signed with the instance's token-signing key).
 */
export const sql = `
-- No foreign key on the hot insert: the client of an entry is the caller's (or the job's), known to exist.
create table audit_events (
  client_id text not null,
  seq bigint not null,
  id text not null,
  type text not null,
  actor_kind text not null,
  actor_id text not null,
  user_id text,
  request_id text,
  -- Ids only (operation id, resource ids): never personal data.
  subject jsonb not null default '{}',
  occurred_at timestamptz not null,
  prev_hash text not null,
  hash text not null,
  primary key (client_id, seq)
);
-- Few indexes, each cheap to maintain: every audited read inserts a row. Time only grows, so a BRIN index serves the
-- time window and pruning; the user filter lists in sequence order.
create index audit_events_client_user on audit_events (client_id, user_id, seq) where user_id is not null;
create index audit_events_time on audit_events using brin (occurred_at);

create table audit_heads (
  client_id text primary key references clients(id),
  seq bigint not null,
  hash text not null
);

create table audit_checkpoints (
  client_id text primary key references clients(id),
  seq bigint not null,
  hash text not null,
  pruned_before timestamptz not null,
  signed_at timestamptz not null,
  signature text not null
);
`;
