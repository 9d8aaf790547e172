/**
 * A client's offers program generated straight into its aggregates, as years of events would have left them: daily
 * `program_counts` rows over 366 days and the client's offers, and `program_score_bands` for its customers. No user,
 * click or impression row is written: the results read only these tables.
 */
import type { Queryable } from '../../apps/bff/src/db/db.ts';

/** Each metric's share of a program's events (they sum to 1); enrolments are a tenth, as one customer is ten events. */
const METRICS: readonly { metric: string; share: number; perOffer: boolean }[] = [
  { metric: 'enrolled', share: 0.1, perOffer: false },
  { metric: 'verified', share: 0.09, perOffer: false },
  { metric: 'consented', share: 0.1, perOffer: false },
  { metric: 'looked', share: 0.2, perOffer: false },
  { metric: 'impressions', share: 0.4, perOffer: true },
  { metric: 'clicks', share: 0.06, perOffer: true },
  { metric: 'applications', share: 0.025, perOffer: true },
  { metric: 'approvals', share: 0.012, perOffer: true },
  { metric: 'declines', share: 0.008, perOffer: true },
  { metric: 'funded', share: 0.005, perOffer: true },
];
const BANDS: readonly [string, number][] = [
  ['very_poor', 0.08],
  ['poor', 0.17],
  ['fair', 0.25],
  ['good', 0.3],
  ['excellent', 0.2],
];
export const DAYS = 366;

/** Whole numbers proportional to `shares` that sum to exactly `total` (the last takes the rounding). */
const split = (total: number, shares: readonly number[]): number[] => {
  const parts = shares.map((s) => Math.floor(total * s));
  parts[parts.length - 1] = total - parts.slice(0, -1).reduce((a, b) => a + b, 0);
  return parts;
};

/**
 * Writes `events` events as daily counts from `lastDay` − 365 to `lastDay`: each metric's total is spread over its cells
 * (days, and offers for offer metrics) by a weight that grows through the year, dips at weekends, falls with the
 * offer's rank and carries a deterministic jitter; cumulative flooring makes the counts sum to the total exactly. A cell
 * that gets no event gets no row, as with real traffic. Answers the rows written.
 */
export const generateProgramCounts = async (
  db: Queryable,
  options: { clientId: string; offerIds: readonly string[]; events: number; lastDay: string },
): Promise<number> => {
  const totals = split(
    options.events,
    METRICS.map((m) => m.share),
  );
  const { rowCount } = await db.query(
    `with metric(metric, total, per_offer) as (
       select * from unnest($3::text[], $4::bigint[], $5::boolean[])
     ),
     offer(offer_id, rank) as (
       select o, r from unnest($2::text[]) with ordinality as u(o, r) union all select '', 0
     ),
     day(day, i) as (
       select ($6::date - ${DAYS - 1} + i), i from generate_series(0, ${DAYS - 1}) as i
     ),
     cell as (
       select m.metric, m.total, d.day, o.offer_id, o.rank,
         ((1 + d.i / 365.0) * (case when extract(isodow from d.day) >= 6 then 0.6 else 1 end)
           * (case when o.rank = 0 then 1 else 1.0 / o.rank end)
           * (0.5 + (abs(hashtext($1 || d.day::text || o.offer_id || m.metric)) % 1000) / 1000.0))::numeric(30, 12) as w
       from metric m cross join day d join offer o on (o.rank = 0) = (not m.per_offer)
     ),
     cum as (
       select *, sum(w) over (partition by metric order by day, offer_id) as upto,
         sum(w) over (partition by metric) as whole
       from cell
     ),
     n as (
       select *, floor(total * upto / whole)
         - floor(total * coalesce(lag(upto) over (partition by metric order by day, offer_id), 0) / whole) as n
       from cum
     )
     insert into program_counts (client_id, day, offer_id, metric, count, amount)
     select $1, day, offer_id, metric, n, case when metric = 'funded' then n * (4000 + 1500 * rank) else 0 end
     from n where n > 0`,
    [options.clientId, options.offerIds, METRICS.map((m) => m.metric), totals, METRICS.map((m) => m.perOffer), options.lastDay],
  );
  return rowCount;
};

/** The client's score bands for `customers` customers, a seventh of each band's having risen since they enrolled. */
export const generateScoreBands = async (db: Queryable, clientId: string, customers: number): Promise<void> => {
  const counts = split(
    customers,
    BANDS.map(([, share]) => share),
  );
  await db.query(
    `insert into program_score_bands (client_id, band, customers, rose)
     select $1, band, n, n / 7 from unnest($2::text[], $3::bigint[]) as u(band, n)`,
    [clientId, BANDS.map(([band]) => band), counts],
  );
};
