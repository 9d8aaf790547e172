/**
 * Checkpoints of verification (modules/audit/verify.ts): a check that found a client's chain intact up to `seq` keeps
 * that entry's hash here, HMAC-signed with the instance's token-signing key, every 1,000th sequence and at the end of
 * the check, so the next check re-hashes only the entries after the newest one. One row per 1,000 entries, plus one.
 */
export const sql = `
create table audit_verify_checkpoints (
  client_id text not null references clients(id),
  seq bigint not null,
  hash text not null,
  verified_at timestamptz not null,
  signature text not null,
  primary key (client_id, seq)
);
`;
