/**
 * A rotated client secret can stay valid beside the new one for an overlap the bank chooses: its hash and its end are
 * kept on the client until then (never the secret itself).
 */
export const sql = `
alter table clients add column previous_secret_hash text;
alter table clients add column previous_secret_expires_at timestamptz;
`;
