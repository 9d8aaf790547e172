/**
 * Credit files are sealed deflated (DataCipher.encryptCompressed), so a user's snapshot row is about 3 KB: over the
 * size at which PostgreSQL moves values into TOAST by default. Keeping rows up to 4 KB inline writes each period's
 * snapshot as one row version instead of a row plus its TOAST chunks and their index entries.
 */
export const sql = `
alter table credit_snapshots set (toast_tuple_target = 4080);
`;
