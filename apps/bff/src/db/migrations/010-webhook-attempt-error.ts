/**
 * Why a webhook attempt failed, as the short stable phrase `GET /v1/webhooks/{id}/logs` shows (`connection refused`,
 * `timeout after 30 s`, `tls: self-signed certificate`, `http 500`); null for a success and for attempts logged before.
 */
export const sql = `
alter table webhook_attempts add column error text;
`;
