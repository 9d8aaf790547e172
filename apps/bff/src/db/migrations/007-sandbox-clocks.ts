/** Sandbox test clocks (modules/clocks): a frozen time per clock, the users on it, and the advance a worker runs. */
export const sql = `
create table sandbox_clocks (
  id text primary key,
  client_id text not null references clients(id),
  name text,
  frozen_time timestamptz not null,
  status text not null check (status in ('ready', 'advancing')),
  -- While advancing: where the clock is going, and until when a worker holds the advance (real time).
  target_time timestamptz,
  lease_until timestamptz,
  created_at timestamptz not null,
  -- Clocks unused for 30 days are deleted with their users (housekeeping).
  last_used_at timestamptz not null
);
create index sandbox_clocks_client on sandbox_clocks (client_id, created_at);
create index sandbox_clocks_advancing on sandbox_clocks (lease_until) where status = 'advancing';
create index sandbox_clocks_last_used on sandbox_clocks (last_used_at);

-- A user on a clock lives at its time; the real-time monitoring schedule leaves it to the clock's advances.
alter table users add column clock_id text references sandbox_clocks(id);
create index users_clock on users (clock_id) where clock_id is not null;
`;
