import type { Queryable } from '../../db/db.ts';

export interface StoredScore {
  seq: string;
  score: number;
  scoreDate: string;
}

interface ScoreRow {
  seq: string | number;
  score: number;
  score_date: string;
}

const toStored = (row: ScoreRow): StoredScore => ({ seq: String(row.seq), score: row.score, scoreDate: row.score_date });

/** Serialises score writes for one user (first pull, refreshes) on every database and instance. */
export const lockUserForScores = async (tx: Queryable, userId: string): Promise<void> => {
  // NO KEY: rows that reference the user (clicks, alerts) may still be inserted meanwhile.
  await tx.query('select id from users where id = $1 for no key update', [userId]);
};

export const latestScores = async (db: Queryable, userId: string, count: number): Promise<StoredScore[]> => {
  const { rows } = await db.query<ScoreRow>(
    'select seq, score, score_date::text from score_history where user_id = $1 order by seq desc limit $2',
    [userId, count],
  );
  return rows.map(toStored);
};

export const countScores = async (db: Queryable, userId: string, source?: 'bureau' | 'refresh'): Promise<number> => {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from score_history where user_id = $1 and ($2::text is null or source = $2)',
    [userId, source ?? null],
  );
  return Number(rows[0]?.n ?? 0);
};

export interface LatestScore extends StoredScore {
  /** The latest score dated on or before the same day `trendMonths` earlier (28th at most), if any. */
  baselineScore: number | null;
}

/**
 * The current score and its trend baseline in one round trip. The baseline day mirrors
 * `monthsBefore`: the same day of the month `trendMonths` earlier, clamped to the 28th.
 */
export const latestScoreWithBaseline = async (
  db: Queryable,
  userId: string,
  trendMonths: number,
): Promise<LatestScore | undefined> => {
  const { rows } = await db.query<ScoreRow & { baseline: number | null }>(
    `select l.seq, l.score, l.score_date::text, b.score as baseline
     from (select seq, score, score_date from score_history where user_id = $1 order by seq desc limit 1) l
     left join lateral (
       select score from score_history
       where user_id = $1
         and score_date <= (date_trunc('month', l.score_date) - make_interval(months => $2))::date
                           + (least(extract(day from l.score_date)::int, 28) - 1)
       order by score_date desc, seq desc limit 1
     ) b on true`,
    [userId, trendMonths],
  );
  const row = rows[0];
  return row ? { ...toStored(row), baselineScore: row.baseline === null ? null : Number(row.baseline) } : undefined;
};

/** The latest score dated on or before `date`: the baseline a trend is measured from. */
export const scoreOnOrBefore = async (db: Queryable, userId: string, date: string): Promise<StoredScore | undefined> => {
  const { rows } = await db.query<ScoreRow>(
    `select seq, score, score_date::text from score_history
     where user_id = $1 and score_date <= $2::date order by score_date desc, seq desc limit 1`,
    [userId, date],
  );
  return rows[0] ? toStored(rows[0]) : undefined;
};

export interface NewScore {
  userId: string;
  clientId: string;
  score: number;
  scoreDate: string;
  source: 'bureau' | 'refresh' | 'monitoring';
  createdAt: Date;
}

export const insertScores = async (tx: Queryable, scores: NewScore[]): Promise<void> => {
  if (scores.length === 0) return;
  // One array per column: a first pull's 24 months (and a group commit's customers, db/write-behind.ts) are a few array
  // literals to parse instead of six values a row. A plain write: it joins a StatementBatch with the user row's
  // last_score_date (credit/service.ts, storeScores).
  await tx.query(
    `insert into score_history (user_id, client_id, score, score_date, source, created_at)
     select * from unnest($1::text[], $2::text[], $3::int[], $4::date[], $5::text[], $6::timestamptz[])`,
    [
      scores.map((s) => s.userId),
      scores.map((s) => s.clientId),
      scores.map((s) => s.score),
      scores.map((s) => s.scoreDate),
      scores.map((s) => s.source),
      scores.map((s) => s.createdAt.toISOString()),
    ],
  );
};

/**
 * History newest first, one point per calendar month (the month's last: a refresh now or a weekly period earlier in
 * the month is replaced by what followed it), dated after `since`, from just below `beforeSeq` (the cursor).
 */
export const listScoresSince = async (
  db: Queryable,
  userId: string,
  since: string,
  limit: number,
  beforeSeq: string | undefined,
): Promise<{ rows: StoredScore[]; total: number }> => {
  const { rows } = await db.query<ScoreRow>(
    `select seq, score, score_date::text from (
       select distinct on (date_trunc('month', score_date)) seq, score, score_date from score_history
       where user_id = $1 and score_date > $2::date
       order by date_trunc('month', score_date) desc, seq desc) months
     where $3::bigint is null or seq < $3::bigint
     order by seq desc limit $4`,
    [userId, since, beforeSeq ?? null, limit],
  );
  const count = await db.query<{ n: number }>(
    `select count(distinct date_trunc('month', score_date))::int as n from score_history
     where user_id = $1 and score_date > $2::date`,
    [userId, since],
  );
  return { rows: rows.map(toStored), total: Number(count.rows[0]?.n ?? 0) };
};

/** The sealed file on record and the time it is as of; undefined before the first committed pull. */
export const findSealedFileOnRecord = async (
  db: Queryable,
  userId: string,
): Promise<{ sealed: string; asOf: Date } | undefined> => {
  const { rows } = await db.query<{ file_enc: string; as_of: Date }>(
    'select file_enc, as_of from credit_snapshots where user_id = $1 and file_enc is not null',
    [userId],
  );
  const row = rows[0];
  return row ? { sealed: row.file_enc, asOf: new Date(row.as_of) } : undefined;
};

/** Whether a pull of the user's file has committed (a file is on record). */
export const hasFileOnRecord = async (db: Queryable, userId: string): Promise<boolean> => {
  const { rows } = await db.query('select 1 from credit_snapshots where user_id = $1 and file_enc is not null', [userId]);
  return rows.length > 0;
};

/**
 * Erases what the credit features hold about purged users: scores, monitoring snapshots and alert keys, alerts (their text names lenders and
 * cities), verification sessions (drawn from the credit file), and the score and alert details in their
 * events. Offer clicks stay as attribution records: they hold ids and the partner's own metadata only.
 */
export const eraseCreditData = async (tx: Queryable, userIds: string[]): Promise<void> => {
  if (userIds.length === 0) return;
  for (const table of [
    'score_history',
    'alerts',
    'verification_sessions',
    'credit_snapshots',
    'monitoring_alert_keys',
    'bureau_triggers',
  ]) {
    await tx.query(`delete from ${table} where user_id = any($1::text[])`, [userIds]);
  }
  await tx.query(
    `update outbox_events set data = data - 'alert' - 'score' - 'previousScore' - 'change' - 'direction'
     where data->>'userId' = any($1::text[]) and (data ? 'alert' or data ? 'score')`,
    [userIds],
  );
};
