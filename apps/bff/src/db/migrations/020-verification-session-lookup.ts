/** A user's open verification session and their sessions started in 24 h are looked up on every questions request. */
export const sql = `
create index verification_sessions_user_started on verification_sessions (user_id, created_at);
`;
