/**
 * Consent records in the order they were recorded (`seq`), whatever the clock said: a sandbox test clock can hold
 * time still or, deleted, set its users back to real time, so `recorded_at` alone neither orders a user's records
 * nor pages through them (GET …/consent/history) without ties. Existing records are numbered by their recorded time,
 * each user's open consent after its other records (a record recorded later supersedes the open one, so the open one is
 * the last recorded; on a test clock it need not be the latest by time). `seq` is only ever compared within a user.
 * The open consent (at most one per user) gets an index of its own: a renewal supersedes it without visiting every
 * earlier record of the user.
 */
export const sql = `
alter table consents add column seq bigint;
update consents set seq = numbered.n
  from (select id, row_number() over (order by (withdrawn_at is null and superseded_at is null), recorded_at, id) as n
        from consents) numbered
  where numbered.id = consents.id;
alter table consents alter column seq set not null;
alter table consents alter column seq add generated always as identity;
select setval(pg_get_serial_sequence('consents', 'seq'), coalesce((select max(seq) from consents), 0) + 1, false);
create unique index consents_user_seq on consents (user_id, seq);
drop index consents_user;
create index consents_user_open on consents (user_id) where withdrawn_at is null and superseded_at is null;
`;
