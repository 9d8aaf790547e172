/**
 * Consent (issue 24): the consumer's recorded instruction every bureau pull rests on.
 * `users.consent_valid_until` is the gate every pull checks (and the monitoring claim filters on): a user has current
 * consent iff it is later than now (the injected clock, or the user's test-clock time). Null means none: never given,
 * withdrawn, or superseded by a terms version that requires re-consent. `consents` keeps every record, for the history
 * a regulator asks for.
 */
export const sql = `
alter table users add column consent_valid_until timestamptz;

create table consents (
  id text primary key,
  client_id text not null references clients(id),
  user_id text not null references users(id),
  -- The version of the disclosure text the consumer was shown (the terms version).
  terms_version text not null,
  -- widget: collected by our widget; partner_attested: the partner says it collected it (API enrolment or POST);
  -- sandbox_default: a sandbox enrolment that supplied none.
  method text not null check (method in ('widget', 'partner_attested', 'sandbox_default')),
  purpose text not null check (purpose in ('credit_monitoring')),
  -- Who may receive the file under this instruction, by name at the time (us and the partner).
  recipients text[] not null,
  -- Personal data, sealed like ssn/address (AES-GCM bound to the consent id and column).
  ip_address_enc text,
  user_agent_enc text,
  accepted_at timestamptz not null,
  recorded_at timestamptz not null,
  expires_at timestamptz not null,
  -- A record ends by withdrawal or by being replaced by a renewal (superseded); expiry is read from expires_at.
  withdrawn_at timestamptz,
  superseded_at timestamptz
);
create index consents_user on consents (user_id, recorded_at, id);
-- Open consents by terms version: what a start with CONSENT_TERMS_REQUIRE_RECONSENT looks up (without a table scan).
create index consents_open_terms on consents (terms_version) where withdrawn_at is null and superseded_at is null;

-- Backfill. Sandbox users enrolled before consent existed get a sandbox_default record under the first terms version,
-- which does not expire (9999-12-31, as at enrolment: modules/users/consent-record.ts), so sandbox integrations and
-- their monitoring keep working, on test clocks too. Production users get none: nothing records their instruction and we will not invent one.
-- They read as monitoring paused (consent_required) and every pull answers 403 CONSENT_REQUIRED until the partner
-- posts a partner_attested record or the consumer accepts in the widget (docs/partner/consent.md).
insert into consents (id, client_id, user_id, terms_version, method, purpose, recipients, accepted_at, recorded_at,
    expires_at)
  select 'cns_' || replace(gen_random_uuid()::text, '-', ''), u.client_id, u.id, '2026-11-25', 'sandbox_default',
    'credit_monitoring', array['Credit API', c.name], u.created_at, now(), timestamptz '9999-12-31 00:00:00+00'
  from users u join clients c on c.id = u.client_id
  where c.environment = 'sandbox' and u.deleted_at is null;
update users u set consent_valid_until = x.expires_at
  from consents x where x.user_id = u.id and x.method = 'sandbox_default';
`;
