/** Webhook subscriptions, the delivery queue (one row per event × subscription) and the attempt log. */
export const sql = `
create table webhooks (
  id text primary key,
  client_id text not null references clients(id),
  url text not null,
  events text[] not null,
  status text not null check (status in ('active', 'disabled', 'failed')),
  secret_enc text not null,
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  failure_count integer not null default 0,
  notice_pending boolean not null default false,
  notice_lease_until timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index webhooks_client_created on webhooks (client_id, created_at, id);
create index webhooks_notice_pending on webhooks (id) where notice_pending;

-- The fan-out marker: an event is copied into webhook_deliveries exactly once, in the transaction that sets it.
alter table outbox_events add column dispatched_at timestamptz;
update outbox_events set dispatched_at = created_at;
create index outbox_events_undispatched on outbox_events (seq) where dispatched_at is null;

create table webhook_deliveries (
  id text primary key,
  webhook_id text not null references webhooks(id) on delete cascade,
  client_id text not null,
  event_id text not null,
  event_type text not null,
  state text not null check (state in ('pending', 'succeeded', 'failed', 'test')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  lease_token text,
  lease_until timestamptz,
  created_at timestamptz not null,
  unique (webhook_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';

create table webhook_attempts (
  seq bigserial primary key,
  delivery_id text not null references webhook_deliveries(id) on delete cascade,
  webhook_id text not null references webhooks(id) on delete cascade,
  event_id text not null,
  event_type text not null,
  attempt integer not null,
  status text not null check (status in ('success', 'failed')),
  status_code integer not null,
  response_time_ms integer not null,
  delivered_at timestamptz not null
);
create index webhook_attempts_webhook on webhook_attempts (webhook_id, delivered_at desc, seq desc);
`;
