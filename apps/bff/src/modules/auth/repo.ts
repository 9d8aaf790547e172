import type { Scope } from '@credit/contract';
import type { ClientRecord, UserTokenClaims } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { CLIENT_COLUMNS, type ClientRow, toClient } from '../clients/service.ts';

export type { UserTokenClaims };

export interface StoredToken {
  kind: 'access' | 'user';
  scopes: Scope[];
  externalUserId: string | null;
  claims: UserTokenClaims | null;
  expiresAt: Date;
  revokedAt: Date | null;
  client: ClientRecord;
}

export interface NewToken {
  hash: string;
  clientId: string;
  kind: 'access' | 'user';
  scopes: Scope[];
  externalUserId?: string;
  claims?: UserTokenClaims;
  createdAt: Date;
  expiresAt: Date;
}

export const insertToken = async (db: Queryable, t: NewToken): Promise<void> => {
  await db.query(
    `insert into access_tokens (token_hash, client_id, kind, scopes, external_user_id, claims, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
    [
      t.hash,
      t.clientId,
      t.kind,
      t.scopes,
      t.externalUserId ?? null,
      t.claims ? JSON.stringify(t.claims) : null,
      t.createdAt,
      t.expiresAt,
    ],
  );
};

export const findTokenByHashes = async (db: Queryable, hashes: string[]): Promise<StoredToken | undefined> => {
  const { rows } = await db.query<
    ClientRow & {
      kind: 'access' | 'user';
      token_scopes: Scope[];
      external_user_id: string | null;
      claims: UserTokenClaims | null;
      expires_at: Date;
      revoked_at: Date | null;
    }
  >(
    `select t.kind, t.scopes as token_scopes, t.external_user_id, t.claims, t.expires_at, t.revoked_at, ${CLIENT_COLUMNS}
     from access_tokens t join clients c on c.id = t.client_id
     where t.token_hash = any($1::text[]) limit 1`,
    [hashes],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    kind: row.kind,
    scopes: row.token_scopes,
    externalUserId: row.external_user_id,
    claims: row.claims,
    expiresAt: new Date(row.expires_at),
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    client: toClient(row),
  };
};

/**
 * How long an expired token is remembered, so a caller presenting it hears "expired, get a new one" rather than
 * "not valid" (the usual case: a token kept over a weekend). Past this it is unknown like any other string.
 */
export const EXPIRED_TOKEN_MEMORY_MS = 7 * 24 * 3600 * 1000;

/**
 * Housekeeping of expired tokens: a user token's identity claims are erased as soon as it expires (only its kind and
 * expiry are needed to say it expired), and the rows go once EXPIRED_TOKEN_MEMORY_MS has passed, keeping the lookup
 * index small. Answers the number of rows deleted.
 */
export const deleteExpiredTokens = async (db: Queryable, now: Date): Promise<number> => {
  await db.query(
    `update access_tokens set claims = null, external_user_id = null
     where expires_at <= $1 and (claims is not null or external_user_id is not null)`,
    [now],
  );
  const before = new Date(now.getTime() - EXPIRED_TOKEN_MEMORY_MS);
  const { rowCount } = await db.query('delete from access_tokens where expires_at < $1', [before]);
  return rowCount;
};
