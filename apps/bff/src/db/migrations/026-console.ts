/**
 * The bank's console (modules/console): one-time sign-in links and the sessions they open. Both are keyed by the HMAC
 * of their token (security/token-hasher.ts), never the token; the staff member's e-mail is encrypted (ctx.cipher). A
 * link is used once (`used_at`), a session ends at `expires_at` or when its staff member signs out (`ended_at`).
 */
export const sql = `
create table console_links (
  token_hash text primary key,
  client_id text not null references clients(id) on delete cascade,
  staff_id text not null,
  staff_email text not null,
  role text not null check (role in ('viewer', 'editor')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index console_links_expiry on console_links (expires_at);

create table console_sessions (
  token_hash text primary key,
  client_id text not null references clients(id) on delete cascade,
  staff_id text not null,
  staff_email text not null,
  role text not null check (role in ('viewer', 'editor')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
create index console_sessions_expiry on console_sessions (expires_at);
`;
