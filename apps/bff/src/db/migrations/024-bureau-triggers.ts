/**
 * Bureau triggers: each change a bureau reports on a monitored file (or the sandbox's calendar schedules) is kept until a
 * pull that shows it settles it: `effective_at` is the instant from which a pulled file does (the time of receipt for a
 * feed's trigger, the day's start for the sandbox's). `users.trigger_due_at` is the earliest unsettled one, so the claim
 * takes a user whose file changed without waiting for the period. The feed's cursor is committed with the triggers read.
 */
export const sql = `
create table bureau_triggers (
  id text primary key,
  client_id text not null references clients(id),
  user_id text not null references users(id) on delete cascade,
  types text[] not null,
  occurred_on date not null,
  effective_at timestamptz not null,
  received_at timestamptz not null,
  settled_at timestamptz,
  settled_by text
);
create index bureau_triggers_unsettled on bureau_triggers (user_id, effective_at) where settled_at is null;
alter table users add column trigger_due_at timestamptz;
create table bureau_trigger_feed (
  feed text primary key,
  cursor text,
  read_at timestamptz not null
);
`;
