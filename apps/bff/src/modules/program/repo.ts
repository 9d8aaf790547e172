import type { Queryable } from '../../db/db.ts';

/** One increment of the program's daily counts. `offerId` '' is the program itself (enrolments, looks). */
export interface ProgramCount {
  clientId: string;
  day: string;
  metric: string;
  offerId?: string;
  count?: number;
  amount?: number;
}

export const addProgramCount = async (tx: Queryable, c: ProgramCount): Promise<void> => {
  await tx.query(
    `insert into program_counts (client_id, day, offer_id, metric, count, amount) values ($1, $2, $3, $4, $5, $6)
     on conflict (client_id, day, offer_id, metric)
     do update set count = program_counts.count + excluded.count, amount = program_counts.amount + excluded.amount`,
    [c.clientId, c.day, c.offerId ?? '', c.metric, c.count ?? 1, c.amount ?? 0],
  );
};

/**
 * Adds one to `metric` of each offer on `day`, in one statement and in offer id order: two requests counting the same
 * offers in another order would otherwise lock the rows in opposite orders and deadlock.
 */
export const addOfferCounts = async (tx: Queryable, clientId: string, day: string, metric: string, offerIds: string[]) => {
  await tx.query(
    `insert into program_counts (client_id, day, offer_id, metric, count, amount)
     select $1, $2, o, $3, 1, 0 from unnest($4::text[]) as o order by o
     on conflict (client_id, day, offer_id, metric)
     do update set count = program_counts.count + excluded.count`,
    [clientId, day, metric, [...offerIds].sort()],
  );
};

/** Records that the user looked at their score on `day`; true only the first time that day. */
export const insertLook = async (tx: Queryable, clientId: string, userId: string, day: string): Promise<boolean> => {
  const { rowCount } = await tx.query(
    'insert into program_looks (client_id, user_id, day) values ($1, $2, $3) on conflict do nothing',
    [clientId, userId, day],
  );
  return rowCount > 0;
};

export interface CountRow {
  day: string;
  offer_id: string;
  metric: string;
  count: string | number;
  amount: string | number;
}

export const listProgramCounts = async (
  db: Queryable,
  clientId: string,
  from: string,
  to: string,
  offerId: string | undefined,
): Promise<CountRow[]> => {
  const { rows } = await db.query<CountRow>(
    `select to_char(day, 'YYYY-MM-DD') as day, offer_id, metric, count, amount from program_counts
     where client_id = $1 and day between $2 and $3 and ($4::text is null or offer_id = '' or offer_id = $4)`,
    [clientId, from, to, offerId ?? null],
  );
  return rows;
};

/**
 * Stores the customer's new score in one statement: their first with us is inserted, a later one replaces the last
 * under the row lock. Answers the score it replaced (null for a first score) and the first score.
 */
export const replaceCustomerScore = async (
  tx: Queryable,
  clientId: string,
  userId: string,
  score: number,
): Promise<{ before: number | null; first: number; inserted: boolean }> => {
  const { rows } = await tx.query<{ before: number | null; first: number | null; inserted: boolean }>(
    `with old as (select score, first_score from program_customer_scores where user_id = $1 for update),
     inserted as (
       insert into program_customer_scores (user_id, client_id, score, first_score)
       select $1, $2, $3, $3 where not exists (select 1 from old)
       on conflict (user_id) do nothing returning first_score),
     updated as (update program_customer_scores p set score = $3 from old where p.user_id = $1 and old.score <> $3)
     select (select score from old) as before, coalesce((select first_score from old), (select first_score from inserted)) as first,
       exists (select 1 from inserted) as inserted`,
    [userId, clientId, score],
  );
  const row = rows[0];
  return {
    before: row?.before === null || row?.before === undefined ? null : Number(row.before),
    first: Number(row?.first ?? score),
    inserted: row?.inserted === true,
  };
};

/** Several customers' scores, locked, in id order (a group commit); a customer without a row is absent. */
export const lockCustomerScores = async (tx: Queryable, userIds: string[]) => {
  const { rows } = await tx.query<{ user_id: string; score: number; first_score: number }>(
    'select user_id, score, first_score from program_customer_scores where user_id = any($1::text[]) order by user_id for update',
    [[...userIds].sort()],
  );
  return new Map(rows.map((row) => [row.user_id, { score: Number(row.score), first: Number(row.first_score) }]));
};

/** A customer's first score: a plain write, so a group commit sends it with the others. */
export const insertCustomerScore = async (tx: Queryable, clientId: string, userId: string, score: number) => {
  await tx.query(
    `insert into program_customer_scores (user_id, client_id, score, first_score) values ($1, $2, $3, $3)
     on conflict (user_id) do nothing`,
    [userId, clientId, score],
  );
};

export const updateCustomerScore = async (tx: Queryable, userId: string, score: number) => {
  await tx.query('update program_customer_scores set score = $2 where user_id = $1', [userId, score]);
};

export const deleteLooks = async (tx: Queryable, userId: string) => {
  await tx.query('delete from program_looks where user_id = $1', [userId]);
};

export const deleteCustomerScore = async (tx: Queryable, userId: string) => {
  const { rows } = await tx.query<{ client_id: string; score: number; first_score: number }>(
    'delete from program_customer_scores where user_id = $1 returning client_id, score, first_score',
    [userId],
  );
  return rows[0];
};

export interface BandChange {
  band: string;
  customers: number;
  rose: number;
}

/**
 * Adds each change to its band in one statement, bands in name order: customers moving between two bands in opposite
 * directions at once lock the rows in the same order, so they never deadlock.
 */
export const changeScoreBands = async (tx: Queryable, clientId: string, changes: BandChange[]) => {
  const sorted = [...changes].sort((a, b) => (a.band < b.band ? -1 : a.band > b.band ? 1 : 0));
  const merged = sorted.reduce<BandChange[]>((all, c) => {
    const last = all.at(-1);
    if (last?.band === c.band) {
      last.customers += c.customers;
      last.rose += c.rose;
    } else all.push({ ...c });
    return all;
  }, []);
  await tx.query(
    `insert into program_score_bands (client_id, band, customers, rose)
     select $1, b, c, r from unnest($2::text[], $3::int[], $4::int[]) as x(b, c, r) order by b
     on conflict (client_id, band) do update set customers = program_score_bands.customers + excluded.customers,
       rose = program_score_bands.rose + excluded.rose`,
    [clientId, merged.map((c) => c.band), merged.map((c) => c.customers), merged.map((c) => c.rose)],
  );
};

export const listScoreBands = async (db: Queryable, clientId: string) => {
  const { rows } = await db.query<{ band: string; customers: string | number; rose: string | number }>(
    'select band, customers, rose from program_score_bands where client_id = $1',
    [clientId],
  );
  return rows;
};
