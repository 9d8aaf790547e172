/** Scores, offer clicks and conversions, alerts and identity-verification sessions: the credit issue's schema. */
export const sql = `
alter table users add column locked_until timestamptz;
alter table users add column verified_at timestamptz;

-- Every score a user has had: the bureau's monthly scores when the file is first pulled, then each refresh.
create table score_history (
  seq bigserial primary key,
  user_id text not null references users(id),
  client_id text not null references clients(id),
  score integer not null check (score between 300 and 850),
  score_date date not null,
  source text not null check (source in ('bureau', 'refresh')),
  created_at timestamptz not null
);
create index score_history_user on score_history (user_id, seq desc);

create table offer_clicks (
  id text primary key,
  user_id text not null references users(id),
  client_id text not null references clients(id),
  offer_id text not null,
  source text,
  metadata jsonb,
  clicked_at timestamptz not null,
  recorded_at timestamptz not null
);
create index offer_clicks_user_offer on offer_clicks (user_id, offer_id, recorded_at desc);

create table offer_conversions (
  id text primary key,
  click_id text not null references offer_clicks(id),
  user_id text not null references users(id),
  client_id text not null references clients(id),
  offer_id text not null,
  converted_at timestamptz not null
);
-- One conversion per click: converting the same click again answers the first conversion.
create unique index offer_conversions_click on offer_conversions (click_id);

create table alerts (
  id text primary key,
  user_id text not null references users(id),
  client_id text not null references clients(id),
  type text not null,
  title text not null,
  message text not null,
  severity text not null check (severity in ('info', 'warning', 'critical')),
  status text not null check (status in ('unread', 'read')),
  data jsonb not null,
  created_at timestamptz not null,
  read_at timestamptz
);
create index alerts_user_created on alerts (user_id, created_at desc, id);

-- A session's questions and answer key name the person's lenders and addresses: neither is kept in
-- clear (the answer key is encrypted; the questions are not stored). identity_hash is a keyed digest
-- of the identity, so failures count per person across all their enrolments and clients.
create table verification_sessions (
  id text primary key,
  user_id text not null references users(id),
  client_id text not null references clients(id),
  identity_hash text not null,
  answer_key_enc text not null,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  answered_at timestamptz,
  passed boolean
);
create index verification_sessions_user_failures on verification_sessions (user_id, answered_at) where passed = false;
create index verification_sessions_identity_failures on verification_sessions (identity_hash, answered_at) where passed = false;
`;
