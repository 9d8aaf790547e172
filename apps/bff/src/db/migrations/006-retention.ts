/**
 * What retention (src/retention) needs to find old rows without reading whole tables. BRIN indexes on the time
 * columns of append-only tables: rows arrive in time order, so a few kilobytes per gigabyte of table point a chunked
 * delete at the oldest blocks (a B-tree would cost ~30 bytes per row on the largest tables).
 */
export const sql = `
create index outbox_events_created_brin on outbox_events using brin (created_at);
create index webhook_deliveries_created_brin on webhook_deliveries using brin (created_at);
create index webhook_attempts_delivered_brin on webhook_attempts using brin (delivered_at);
create index alerts_created_brin on alerts using brin (created_at);
create index monitoring_alert_keys_created_brin on monitoring_alert_keys using brin (created_at);
create index score_history_date_brin on score_history using brin (score_date);
-- Deleting a delivery cascades to its attempts: without this every deleted delivery would scan the attempt log.
create index webhook_attempts_delivery on webhook_attempts (delivery_id);
-- An event is kept while a delivery of it is still owed; only those few rows are indexed.
create index webhook_deliveries_pending_event on webhook_deliveries (event_id) where state = 'pending';
`;
