import type { Queryable } from '../../db/db.ts';
import type { OfferFacts } from './eligibility.ts';

export interface ProfileRow {
  user_id: string;
  external_user_id: string;
  score: number;
  facts: OfferFacts | string;
  as_of: Date;
}

export const factsOfRow = (row: Pick<ProfileRow, 'facts'>): OfferFacts =>
  typeof row.facts === 'string' ? (JSON.parse(row.facts) as OfferFacts) : row.facts;

export const lockProfile = async (tx: Queryable, userId: string) => {
  const { rows } = await tx.query<{ as_of: Date }>('select as_of from offer_profiles where user_id = $1 for update', [userId]);
  return rows[0];
};

export const findProfile = async (db: Queryable, userId: string) => {
  const { rows } = await db.query<Pick<ProfileRow, 'facts' | 'as_of'>>(
    'select facts, as_of from offer_profiles where user_id = $1',
    [userId],
  );
  return rows[0];
};

export const upsertProfile = async (
  tx: Queryable,
  p: { userId: string; clientId: string; facts: OfferFacts; asOf: Date },
): Promise<void> => {
  await tx.query(
    `insert into offer_profiles (user_id, client_id, facts, as_of) values ($1, $2, $3::jsonb, $4)
     on conflict (user_id) do update set facts = excluded.facts, as_of = excluded.as_of`,
    [p.userId, p.clientId, JSON.stringify(p.facts), p.asOf],
  );
};

export const deleteProfile = async (tx: Queryable, userId: string) => {
  await tx.query('delete from offer_profiles where user_id = $1', [userId]);
  await tx.query('delete from offer_impressions where user_id = $1', [userId]);
};

/**
 * One page of the client's customers whose profile may meet a score range, after `afterUserId`: enrolled, verified,
 * not deleted, consent in force at `now`, file not frozen. The rules themselves are checked by the caller.
 */
export const scanAudienceCandidates = async (
  db: Queryable,
  q: { clientId: string; minScore: number; maxScore: number; now: Date; afterUserId: string; limit: number },
): Promise<ProfileRow[]> => {
  // The score is the one the customer's own offers read (their latest score point), which a sandbox score refresh
  // can move away from the file's.
  const { rows } = await db.query<ProfileRow>(
    `select p.user_id, u.external_user_id, h.score, p.facts, p.as_of
     from offer_profiles p join users u on u.id = p.user_id
     cross join lateral (select score from score_history where user_id = p.user_id order by seq desc limit 1) h
     where p.client_id = $1 and p.user_id > $5 and h.score between $2 and $3
       and u.deleted_at is null and u.status = 'active' and u.consent_valid_until > $4
       and (u.monitoring_paused_reason is null or u.monitoring_paused_reason <> 'credit_frozen')
     order by p.user_id limit $6`,
    [q.clientId, q.minScore, q.maxScore, q.now, q.afterUserId, q.limit],
  );
  return rows;
};

/** Users with a file on record and no offer profile yet (files committed before profiles existed). */
export const listUsersWithoutProfile = async (db: Queryable, afterUserId: string, limit: number) => {
  const { rows } = await db.query<{ id: string; client_id: string; address_enc: string | null }>(
    `select u.id, u.client_id, u.address_enc from credit_snapshots s join users u on u.id = s.user_id
     where s.file_enc is not null and u.deleted_at is null and u.id > $1
       and not exists (select 1 from offer_profiles p where p.user_id = s.user_id)
     order by u.id limit $2`,
    [afterUserId, limit],
  );
  return rows;
};
