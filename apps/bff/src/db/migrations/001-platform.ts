/** Clients, tokens, users, the outbox and idempotency keys: the platform issue's schema. */
export const sql = `
create table instance_keys (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

create table clients (
  id text primary key,
  name text not null,
  environment text not null check (environment in ('sandbox', 'production')),
  secret_hash text not null,
  scopes text[] not null,
  contact_email text not null,
  embed_origins text[] not null default '{}',
  ip_allowlist text[] not null default '{}',
  rate_limit_auth integer,
  rate_limit_batch integer,
  rate_limit_user_ops integer,
  is_bootstrap boolean not null default false,
  created_at timestamptz not null,
  secret_rotated_at timestamptz
);

create table access_tokens (
  token_hash text primary key,
  client_id text not null references clients(id) on delete cascade,
  kind text not null check (kind in ('access', 'user')),
  scopes text[] not null,
  external_user_id text,
  claims jsonb,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index access_tokens_client on access_tokens (client_id);

create table users (
  id text primary key,
  client_id text not null references clients(id),
  external_user_id text,
  email text,
  first_name text,
  last_name text,
  status text not null,
  ssn_enc text,
  date_of_birth_enc text,
  address_enc text,
  phone_enc text,
  created_at timestamptz not null,
  last_score_date date,
  deleted_at timestamptz,
  purged_at timestamptz
);
create unique index users_live_external_id on users (client_id, external_user_id) where deleted_at is null;
create index users_client_created on users (client_id, created_at, id) where deleted_at is null;
create index users_pending_purge on users (deleted_at) where deleted_at is not null and purged_at is null;

create table outbox_events (
  seq bigserial primary key,
  id text not null unique,
  client_id text not null references clients(id),
  type text not null,
  data jsonb not null,
  created_at timestamptz not null
);
create index outbox_events_client on outbox_events (client_id, seq);

create table idempotency_keys (
  client_id text not null references clients(id) on delete cascade,
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('running', 'done')),
  status_code integer,
  response_body jsonb,
  locked_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (client_id, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);
`;
