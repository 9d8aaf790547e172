import { ratingForScore } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import {
  addOfferCounts,
  addProgramCount,
  type BandChange,
  changeScoreBands,
  deleteCustomerScore,
  deleteLooks,
  insertCustomerScore,
  insertLook,
  lockCustomerScores,
  type ProgramCount,
  replaceCustomerScore,
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

/** Counts a customer who read their score, once a customer a day: after the first, a read costs the database nothing. */
export const noteScoreLook = async (ctx: Pick<AppContext, 'db' | 'services'>, clientId: string, userId: string, at: Date) => {
  const day = dayOf(at);
  const key = `${userId}|${day}`;
  const lookedToday = ctx.services.programLooksCounted;
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
/**
 * The band changes of a group commit, added to a client's bands once at its end: the band rows are every customer's of
 * the client, so holding them from the first customer's commit to the last would serialise every other commit. A
 * transaction carries it as `scoreBands`.
 */
export class ScoreBandTally {
  readonly #byClient = new Map<string, BandChange[]>();
  /** The group's customers' current and first scores, read (and locked) once; a customer absent here has none yet. */
  #scores: Map<string, { score: number; first: number }> | undefined;
  #loaded = new Set<string>();

  /** Reads the group's customer scores in one statement, so each customer's new score is a plain write. */
  async preload(tx: Queryable, userIds: string[]): Promise<void> {
    this.#scores = await lockCustomerScores(tx, userIds);
    this.#loaded = new Set(userIds);
  }

  /** The customer's scores if preloaded: `null` for none yet, `undefined` when this tally does not know the customer. */
  known(userId: string): { score: number; first: number } | null | undefined {
    if (!this.#loaded.has(userId)) return undefined;
    return this.#scores?.get(userId) ?? null;
  }

  remember(userId: string, scores: { score: number; first: number }): void {
    this.#scores?.set(userId, scores);
  }

  add(clientId: string, changes: BandChange[]): void {
    this.#byClient.set(clientId, [...(this.#byClient.get(clientId) ?? []), ...changes]);
  }

  /** Clients in id order, each one statement (bands in name order), so two groups never wait on each other in a cycle. */
  async flush(tx: Queryable): Promise<void> {
    for (const clientId of [...this.#byClient.keys()].sort()) {
      await changeScoreBands(tx, clientId, this.#byClient.get(clientId) ?? []);
    }
    this.#byClient.clear();
  }
}

const changeBands = (tx: Queryable, clientId: string, changes: BandChange[]) => {
  const tally = (tx as Queryable & { scoreBands?: ScoreBandTally }).scoreBands;
  if (!tally) return changeScoreBands(tx, clientId, changes);
  tally.add(clientId, changes);
};

/** The score this customer had, and their first: from a group's preload when there is one, else read and replaced here. */
const replaceScore = async (tx: Queryable, clientId: string, userId: string, score: number) => {
  const tally = (tx as Queryable & { scoreBands?: ScoreBandTally }).scoreBands;
  const known = tally?.known(userId);
  if (!tally || known === undefined) return replaceCustomerScore(tx, clientId, userId, score);
  if (known === null) await insertCustomerScore(tx, clientId, userId, score);
  else if (known.score !== score) await updateCustomerScore(tx, userId, score);
  tally.remember(userId, { score, first: known?.first ?? score });
  return { before: known?.score ?? null, first: known?.first ?? score, inserted: known === null };
};

export const noteCustomerScore = async (tx: Queryable, clientId: string, userId: string, score: number): Promise<void> => {
  const band = ratingForScore(score);
  const { before, first, inserted } = await replaceScore(tx, clientId, userId, score);
  if (before === null) {
    // A first score another transaction stored at the same moment is counted by that one.
    if (inserted) await changeBands(tx, clientId, [{ band, customers: 1, rose: 0 }]);
    return;
  }
  if (before === score) return;
  const changes = [
    { band: ratingForScore(before), customers: -1, rose: before > first ? -1 : 0 },
    { band, customers: 1, rose: score > first ? 1 : 0 },
  ];
  // Within one band and on the same side of the first score, the counts do not move.
  if (changes[0]?.band === band && changes[0].rose + (changes[1]?.rose ?? 0) === 0) return;
  await changeBands(tx, clientId, changes);
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
