/**
 * What a pull's writes cost PostgreSQL, cut where it bought nothing:
 * - Sealed values are ciphertext, which does not compress: they are stored out of line without the attempt to compress
 *   each one (EXTERNAL).
 * - Score history rows are written only by the commit unit under the user's row lock and erased with the user
 *   (credit's eraseCreditData), so their two foreign-key checks per row (a first pull writes 24 rows) checked nothing
 *   those paths do not already hold.
 */
export const sql = `
alter table credit_snapshots alter column snapshot_enc set storage external;
alter table credit_snapshots alter column file_enc set storage external;
alter table score_history drop constraint if exists score_history_user_id_fkey;
alter table score_history drop constraint if exists score_history_client_id_fkey;
`;
