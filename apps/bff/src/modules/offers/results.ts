import { CREDIT_RATINGS, type TProgramResults, type TProgramResultsQuery } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { validationError } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import { type CountRow, listProgramCounts, listScoreBands } from '../program/service.ts';
import { catalogueOf } from './service.ts';

type Counts = TProgramResults['totals'];
const METRICS = [
  'enrolled',
  'verified',
  'consented',
  'looked',
  'impressions',
  'clicks',
  'applications',
  'approvals',
  'declines',
  'funded',
] as const;
const PROGRAM_METRICS = new Set(['enrolled', 'verified', 'consented', 'looked']);
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const zero = (): Counts => ({ ...Object.fromEntries(METRICS.map((m) => [m, 0])), fundedAmount: 0 }) as Counts;

const add = (counts: Counts, row: CountRow) => {
  const metric = row.metric as (typeof METRICS)[number];
  if (!(METRICS as readonly string[]).includes(metric)) return;
  counts[metric] += Number(row.count);
  if (metric === 'funded') counts.fundedAmount = Math.round((counts.fundedAmount + Number(row.amount)) * 100) / 100;
};

/** The first day of the period holding `day`: itself, its week's Monday, or its month's first. */
const periodStart = (day: string, interval: TProgramResultsQuery['interval']): string => {
  if (interval === 'day') return day;
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  const at = new Date(`${day}T00:00:00Z`);
  const back = (at.getUTCDay() + 6) % 7;
  return new Date(at.getTime() - back * DAY_MS).toISOString().slice(0, 10);
};

/**
 * The program's results from its daily counts (kept as events happen), summed by period, per offer and in total;
 * the score bands are the counts kept as files are recorded. No scan of the client's customers.
 */
export const getProgramResults = async (
  ctx: AppContext,
  caller: Caller,
  query: TProgramResultsQuery,
): Promise<TProgramResults> => {
  const from = new Date(`${query.from}T00:00:00Z`).getTime();
  const to = new Date(`${query.to}T00:00:00Z`).getTime();
  if (to < from) throw validationError([{ field: 'query.to', message: 'must not be before from' }]);
  if ((to - from) / DAY_MS >= MAX_DAYS) {
    throw validationError([{ field: 'query.to', message: 'must be at most 365 days after from (366 days in all)' }]);
  }
  const offers = await catalogueOf(ctx, caller.clientId);
  const rows = await listProgramCounts(ctx.db, caller.clientId, query.from, query.to, query.offerId);
  const totals = zero();
  const periods = new Map<string, Counts>();
  for (let t = from; t <= to; t += DAY_MS) {
    const start = periodStart(new Date(t).toISOString().slice(0, 10), query.interval);
    if (!periods.has(start)) periods.set(start, zero());
  }
  const byOffer = new Map<string, Counts>();
  for (const row of rows) {
    add(totals, row);
    const period = periods.get(periodStart(row.day, query.interval));
    if (period) add(period, row);
    if (row.offer_id !== '' && !PROGRAM_METRICS.has(row.metric)) {
      const counts = byOffer.get(row.offer_id) ?? zero();
      add(counts, row);
      byOffer.set(row.offer_id, counts);
    }
  }
  const bands = Object.fromEntries(CREDIT_RATINGS.map((r) => [r, 0])) as TProgramResults['scores']['bands'];
  let customers = 0;
  let rose = 0;
  for (const band of await listScoreBands(ctx.db, caller.clientId)) {
    if (!(band.band in bands)) continue;
    bands[band.band as keyof typeof bands] = Number(band.customers);
    customers += Number(band.customers);
    rose += Number(band.rose);
  }
  const names = new Map(offers.map((o) => [o.offerId, o.body.name]));
  const listed = query.offerId ? offers.filter((o) => o.offerId === query.offerId) : offers;
  return {
    from: query.from,
    to: query.to,
    interval: query.interval,
    totals,
    series: [...periods].map(([start, counts]) => ({ start, ...counts })),
    offers: listed.map((o) => {
      const c = byOffer.get(o.offerId) ?? zero();
      return {
        offerId: o.offerId,
        name: names.get(o.offerId) ?? o.offerId,
        impressions: c.impressions,
        clicks: c.clicks,
        applications: c.applications,
        approvals: c.approvals,
        declines: c.declines,
        funded: c.funded,
        fundedAmount: c.fundedAmount,
      };
    }),
    scores: { bands, customers, rose },
  };
};
