/**
 * Where each event stands in the order events became visible, for following them (`GET /v1/events?sort=recorded`).
 * `txid`: the recording transaction (`pg_current_xact_id()`, 64 bits, never wraps). Listed by (`txid`, `seq`) and only
 * below the oldest transaction still running, a follower never passes an event whose transaction commits later:
 * every transaction still able to add one has a higher `txid` (events/repo.ts). Existing rows take the migration's
 * transaction, so they stay before every later one, in `seq` order. A logical restore into a new cluster must start
 * its transaction counter above the restored `txid`s (`pg_resetwal -e`), as pg_upgrade does.
 */
export const sql = `
alter table outbox_events add column txid xid8 not null default pg_current_xact_id();
create index outbox_events_client_recorded on outbox_events (client_id, txid, seq);
`;
