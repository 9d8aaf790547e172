/** Credit monitoring: each user's schedule, the sealed snapshot the next comparison needs, and alert keys. */
export const sql = `
-- The schedule lives on the user row: period n is due at monitoring_anchor_at + n × MONITORING_INTERVAL.
-- monitoring_next_attempt_at is what workers claim on: the due time, a retry time after a failed pull, or a
-- lease while a worker holds the user (a crashed worker's lease runs out and another worker takes over).
alter table users add column monitoring_anchor_at timestamptz;
alter table users add column monitoring_period integer not null default 0;
-- When the current period is due (what nextRefreshAt shows; claims use monitoring_next_attempt_at).
alter table users add column monitoring_due_at timestamptz;
alter table users add column monitoring_next_attempt_at timestamptz;
alter table users add column monitoring_attempts integer not null default 0;
alter table users add column monitoring_last_at timestamptz;
alter table users add column monitoring_paused_reason text;
alter table users add column manual_refresh_at timestamptz;
create index users_monitoring_due on users (monitoring_next_attempt_at)
  where monitoring_next_attempt_at is not null and deleted_at is null;

-- Users verified before monitoring existed are pulled now, and after that on their own verification day's cycle, so
-- the existing population does not fall due all at once every period.
update users set monitoring_anchor_at = coalesce(verified_at, now()), monitoring_due_at = now(),
  monitoring_next_attempt_at = now()
  where status = 'active' and deleted_at is null;

alter table score_history drop constraint score_history_source_check;
alter table score_history add constraint score_history_source_check
  check (source in ('bureau', 'refresh', 'monitoring'));

-- What the next comparison needs from the last pull (inquiries, accounts, utilisation, addresses, flags),
-- encrypted like other personal data. One row per user: replaced by each pull, erased with the user.
create table credit_snapshots (
  user_id text primary key references users(id),
  client_id text not null references clients(id),
  snapshot_enc text not null,
  as_of timestamptz not null,
  taken_at timestamptz not null
);

-- One row per thing an alert was raised about (an inquiry, an account, a flag…): the same one never alerts twice,
-- even if it leaves the file and comes back, or a pull is repeated.
create table monitoring_alert_keys (
  user_id text not null references users(id),
  key text not null,
  created_at timestamptz not null,
  primary key (user_id, key)
);
`;
