/**
 * Alert e-mails the bank's customers receive under the bank's name (modules/alert-emails). Each client's settings; the
 * customer's language (from the widget) and their one-click unsubscribe on the user row; the queue of e-mails, one row
 * per alert or per customer-day digest, holding ids only: the address and first name are read from the user row when
 * the e-mail is sent. Unsubscribe tokens are stored as digests, one per e-mail sent, bound to its user and client.
 */
export const sql = `
alter table clients
  add column alert_emails_enabled boolean not null default false,
  add column alert_email_display_name text,
  add column alert_email_logo_url text,
  add column alert_email_brand_color text,
  add column alert_email_reply_to text,
  add column alert_email_link_url text,
  add column alert_email_mode text not null default 'each' check (alert_email_mode in ('each', 'daily_digest'));

-- Existing rows take the default, which the check accepts: NOT VALID spares a scan of every user under the table lock.
alter table users
  add column locale text not null default 'en',
  add column alert_emails_unsubscribed_at timestamptz;
alter table users add constraint users_locale_known check (locale in ('en', 'es')) not valid;

create table alert_emails (
  id text primary key,
  client_id text not null references clients(id),
  user_id text not null references users(id),
  mode text not null check (mode in ('each', 'daily_digest')),
  alert_ids text[] not null,
  -- The customer's UTC day a digest covers (their test clock's day in the sandbox); null for an e-mail of one alert.
  digest_day date,
  state text not null default 'pending' check (state in ('pending', 'sent', 'suppressed', 'failed')),
  -- The customer's time from which it may go (a digest: once its day is over); next_attempt_at is real time.
  due_at timestamptz not null,
  next_attempt_at timestamptz not null,
  attempts integer not null default 0,
  -- An error class (ECONNECTION, EENVELOPE 550, …), never the server's text, which may quote the address.
  last_error text,
  last_attempt_at timestamptz,
  suppressed_reason text,
  lease_token text,
  lease_until timestamptz,
  created_at timestamptz not null,
  sent_at timestamptz,
  settled_at timestamptz,
  check ((mode = 'daily_digest') = (digest_day is not null))
);
create unique index alert_emails_one_per_alert on alert_emails ((alert_ids[1])) where mode = 'each';
create unique index alert_emails_one_digest_a_day on alert_emails (client_id, user_id, digest_day) where mode = 'daily_digest';
create index alert_emails_due on alert_emails (next_attempt_at) where state = 'pending';
create index alert_emails_settled on alert_emails (settled_at) where state <> 'pending';

create table alert_email_unsubscribe_tokens (
  token_hash text primary key,
  client_id text not null references clients(id),
  user_id text not null references users(id),
  email_id text not null references alert_emails(id) on delete cascade,
  created_at timestamptz not null
);
create index alert_email_unsubscribe_tokens_email on alert_email_unsubscribe_tokens (email_id);
`;
