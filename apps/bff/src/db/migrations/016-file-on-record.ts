/**
 * The file on record: the whole credit file of the user's last committed pull, sealed like other personal data, beside
 * the comparison snapshot. Reads serve it and never call the bureau. Users pulled before this column existed have no
 * file on record: their next scheduled pull is brought forward to now (their period and due date are kept), so each
 * is pulled once and not on every read.
 */
export const sql = `
alter table credit_snapshots add column file_enc text;
update users set monitoring_next_attempt_at = now()
  where deleted_at is null and monitoring_next_attempt_at is not null
    and id in (select user_id from credit_snapshots);
`;
