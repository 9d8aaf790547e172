import type { ConsoleRole } from '@credit/contract';
import type { ClientRecord } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { CLIENT_COLUMNS, type ClientRow, toClient } from '../clients/service.ts';

/** A link or a session as stored: the staff member's e-mail still sealed. */
export interface StoredGrant {
  tokenHash: string;
  clientId: string;
  staffId: string;
  staffEmailSealed: string;
  role: ConsoleRole;
  createdAt: Date;
  expiresAt: Date;
}

export const insertConsoleLink = async (db: Queryable, link: StoredGrant): Promise<void> => {
  await db.query(
    `insert into console_links (token_hash, client_id, staff_id, staff_email, role, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [link.tokenHash, link.clientId, link.staffId, link.staffEmailSealed, link.role, link.createdAt, link.expiresAt],
  );
};

type GrantRow = {
  token_hash: string;
  client_id: string;
  staff_id: string;
  staff_email: string;
  role: ConsoleRole;
  created_at: Date;
  expires_at: Date;
};

const toGrant = (row: GrantRow): StoredGrant => ({
  tokenHash: row.token_hash,
  clientId: row.client_id,
  staffId: row.staff_id,
  staffEmailSealed: row.staff_email,
  role: row.role,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
});

/**
 * Marks the link used and answers it, in one statement, so two visits racing with one link open one session at most;
 * undefined when no unused, unexpired link has one of `hashes`.
 */
export const claimConsoleLink = async (db: Queryable, hashes: string[], now: Date): Promise<StoredGrant | undefined> => {
  const { rows } = await db.query<GrantRow>(
    `update console_links set used_at = $2
     where token_hash = any($1::text[]) and used_at is null and expires_at > $2
     returning token_hash, client_id, staff_id, staff_email, role, created_at, expires_at`,
    [hashes, now],
  );
  return rows[0] ? toGrant(rows[0]) : undefined;
};

/** Why a link could not be claimed: never issued (or pruned), already used, or past its ten minutes. */
export const consoleLinkState = async (db: Queryable, hashes: string[]): Promise<'unknown' | 'used' | 'expired'> => {
  const { rows } = await db.query<{ used_at: Date | null }>(
    'select used_at from console_links where token_hash = any($1::text[]) limit 1',
    [hashes],
  );
  if (!rows[0]) return 'unknown';
  return rows[0].used_at ? 'used' : 'expired';
};

export const insertConsoleSession = async (db: Queryable, session: StoredGrant): Promise<void> => {
  await db.query(
    `insert into console_sessions (token_hash, client_id, staff_id, staff_email, role, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      session.tokenHash,
      session.clientId,
      session.staffId,
      session.staffEmailSealed,
      session.role,
      session.createdAt,
      session.expiresAt,
    ],
  );
};

/** A session still open at `now` with one of `hashes`, with its client. */
export const findOpenConsoleSession = async (
  db: Queryable,
  hashes: string[],
  now: Date,
): Promise<(StoredGrant & { client: ClientRecord }) | undefined> => {
  const { rows } = await db.query<GrantRow & ClientRow & { session_created_at: Date }>(
    `select s.token_hash, s.client_id, s.staff_id, s.staff_email, s.role, s.created_at as session_created_at, s.expires_at,
       ${CLIENT_COLUMNS}
     from console_sessions s join clients c on c.id = s.client_id
     where s.token_hash = any($1::text[]) and s.ended_at is null and s.expires_at > $2
     limit 1`,
    [hashes, now],
  );
  const row = rows[0];
  if (!row) return undefined;
  // `created_at` is the client's column (c.created_at); the session's is renamed beside it.
  return { ...toGrant({ ...row, created_at: row.session_created_at }), client: toClient(row) };
};

export const endConsoleSession = async (db: Queryable, tokenHash: string, now: Date): Promise<void> => {
  await db.query('update console_sessions set ended_at = $2 where token_hash = $1 and ended_at is null', [tokenHash, now]);
};

/** Links and sessions that ended more than a day before `cutoff`'s day: nothing reads them again. */
export const deleteEndedConsoleGrants = async (db: Queryable, clientId: string, cutoff: Date): Promise<void> => {
  await db.query('delete from console_links where client_id = $1 and expires_at < $2', [clientId, cutoff]);
  await db.query('delete from console_sessions where client_id = $1 and (expires_at < $2 or ended_at < $2)', [clientId, cutoff]);
};
