import { ratingForScore } from '@credit/contract';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import {
  addOfferCounts,
  addProgramCount,
  changeScoreBands,
  deleteCustomerScore,
  deleteLooks,
  insertCustomerScore,
  insertLook,
  lockCustomerScore,
  type ProgramCount,
  updateCustomerScore,
} from './repo.ts';

export { type CountRow, listProgramCounts, listScoreBands } from './repo.ts';

/** The program's metrics, kept as daily counts when the event happens (never counted by scanning users). */
export type ProgramMetric =
  | 'enrolled'
  | 'verified'
  | 'consented'
  | 'looked'
  | 'impressions'
  | 'clicks'
  | 'applications'
  | 'approvals'
  | 'declines'
  | 'funded';

/** The UTC calendar day of an instant, as the counts are kept. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** Adds to the program's count of `metric` on the day of `at`, in the caller's transaction. */
export const countProgram = (
  tx: Queryable,
  entry: Omit<ProgramCount, 'day' | 'metric'> & { metric: ProgramMetric; at: Date },
): Promise<void> => addProgramCount(tx, { ...entry, day: dayOf(entry.at) });

/** Adds one impression (or another per-offer count) to each of `offerIds` on the day of `at`, in one statement. */
export const countOffers = (tx: Queryable, clientId: string, metric: ProgramMetric, offerIds: string[], at: Date) =>
  offerIds.length === 0 ? Promise.resolve() : addOfferCounts(tx, clientId, dayOf(at), metric, offerIds);

/** Users already counted as looking today, per process: a score read costs the database nothing after the first. */
const lookedToday = new LRUCache<string, true>({ max: 100_000 });

/** Counts a customer who read their score, once a customer a day. */
export const noteScoreLook = async (ctx: Pick<AppContext, 'db'>, clientId: string, userId: string, at: Date) => {
  const day = dayOf(at);
  const key = `${userId}|${day}`;
  if (lookedToday.has(key)) return;
  await ctx.db.transaction(async (tx) => {
    if (await insertLook(tx, clientId, userId, day)) await addProgramCount(tx, { clientId, day, metric: 'looked' });
  });
  lookedToday.set(key, true);
};

/**
 * Records a customer's new current score, in the transaction that records it (a pull, or a sandbox score refresh), and
 * moves them between the program's score bands: the bands are counts, never a scan of customers.
 */
export const noteCustomerScore = async (tx: Queryable, clientId: string, userId: string, score: number): Promise<void> => {
  const band = ratingForScore(score);
  if (await insertCustomerScore(tx, clientId, userId, score)) {
    await changeScoreBands(tx, clientId, [{ band, customers: 1, rose: 0 }]);
    return;
  }
  const previous = await lockCustomerScore(tx, userId);
  if (!previous || Number(previous.score) === score) return;
  const first = Number(previous.first_score);
  const before = Number(previous.score);
  await updateCustomerScore(tx, userId, score);
  await changeScoreBands(tx, clientId, [
    { band: ratingForScore(before), customers: -1, rose: before > first ? -1 : 0 },
    { band, customers: 1, rose: score > first ? 1 : 0 },
  ]);
};

/** Takes a purged customer out of the score bands. */
export const forgetCustomerScore = async (tx: Queryable, userId: string): Promise<void> => {
  await deleteLooks(tx, userId);
  const removed = await deleteCustomerScore(tx, userId);
  if (removed) {
    const score = Number(removed.score);
    await changeScoreBands(tx, removed.client_id, [
      { band: ratingForScore(score), customers: -1, rose: score > Number(removed.first_score) ? -1 : 0 },
    ]);
  }
};
