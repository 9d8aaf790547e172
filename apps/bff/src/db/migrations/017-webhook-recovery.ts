/**
 * Recovering deliveries (retry one now, recover since) and listing events.
 * `schedule_base`: the delivery's `attempts` when its current retry schedule began, so attempt numbers keep
 * counting across a re-activation, a manual retry or a recovery while each of those starts the schedule afresh.
 * The index serves `GET /v1/events` (one client's events, newest first).
 */
export const sql = `
alter table webhook_deliveries add column schedule_base integer not null default 0;
create index outbox_events_client_created on outbox_events (client_id, created_at desc, id);
`;
