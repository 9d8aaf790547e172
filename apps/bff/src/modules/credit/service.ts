import {
  ratingForScore,
  SCORE_MAX,
  SCORE_MIN,
  type TCreditHistoryQuery,
  type TCreditReport,
  type TCreditScore,
  type TCreditTrend,
  type TPagination,
  type TSandboxScoreRefreshResult,
  type TScoreHistoryEntry,
  type TSimulation,
  type TSimulationInput,
} from '@credit/contract';
import { monthsBefore } from '../../bureau/dates.ts';
import { creditFactors } from '../../bureau/factors.ts';
import type { CreditFile } from '../../bureau/provider.ts';
import { nextSandboxScore } from '../../bureau/sandbox/next-score.ts';
import { scoresTag, userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import { sharedAnswerData } from '../../core/shared-answer.ts';
import type { Queryable } from '../../db/db.ts';
import { StatementBatch } from '../../db/statement-batch.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { noteCustomerScore, noteScoreLook } from '../program/service.ts';
import type { UserRow } from '../users/service.ts';
import { loadCreditSubject, setLastScoreDate, writeUser } from '../users/service.ts';
import { creditFileOnRecord, requireActiveUser, requireBureau } from './access.ts';
import type { FileOnRecord } from './file-on-record.ts';
import { creditReportOf } from './report.ts';
import { asValidationError, bureauActionsOf, simulatedFileOf, simulationOf } from './score-simulation.ts';

export { creditFileOnRecord, loadFileOnRecord, pullIdentityFile, requireActiveUser } from './access.ts';
export { accountIdOf } from './account-id.ts';
export { type FileOnRecord, sealCreditFile } from './file-on-record.ts';
export { eraseCreditData, hasFileOnRecord } from './repo.ts';

import { decodeHistoryCursor, encodeHistoryCursor } from './history-cursor.ts';
import {
  countScores,
  insertScores,
  latestScores,
  latestScoreWithBaseline,
  listScoresSince,
  lockUserForScores,
  type NewScore,
  scoreOnOrBefore,
} from './repo.ts';
import { type OnSignificantChange, recordScoreChange } from './score-change.ts';

export type { OnSignificantChange } from './score-change.ts';

export interface CurrentScore {
  score: number;
  scoreDate: string;
  /** The score `TREND_MONTHS` before `scoreDate`, when known: what the trend compares with. */
  baselineScore?: number | null;
}

/** The score read reports the change over three months (DECISIONS: trend.period `3months`). */
const TREND_MONTHS = 3;

/**
 * Stores score points and, unless the caller writes it with its own update of the user row (`rowWritesDate`), the
 * row's last_score_date, as one statement. Answers the date the row's last_score_date is to read.
 */
const storeScores = async (tx: Queryable, scores: NewScore[], rowWritesDate = false): Promise<string | null> => {
  const last = scores.at(-1);
  if (!last) return null;
  const batch = new StatementBatch();
  await insertScores(batch, scores);
  if (!rowWritesDate) await setLastScoreDate(batch, last.userId, last.scoreDate);
  await batch.run(tx);
  return last.scoreDate;
};

/** Stores the file's monthly scores as the user's history and announces the current one; the caller holds the user row. */
const seedScoreHistory = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  file: CreditFile,
  rowWritesDate: boolean,
): Promise<string | null> => {
  const createdAt = ctx.clock.now();
  const storedThrough = await storeScores(
    tx,
    file.monthlyScores.map((m) => ({
      userId: user.id,
      clientId: user.client_id,
      ...m,
      scoreDate: m.date,
      source: 'bureau' as const,
      createdAt,
    })),
    rowWritesDate,
  );
  const current = file.monthlyScores.at(-1);
  if (!current) return storedThrough;
  await recordEvent(tx, ctx.ids, {
    clientId: user.client_id,
    type: 'score.updated',
    data: {
      userId: user.id,
      externalUserId: user.external_user_id,
      score: current.score,
      previousScore: null,
      change: 0,
      scoreDate: current.date,
    },
    createdAt,
  });
  return storedThrough;
};

/** The user's current score: the newest point of the history that committed pulls (and sandbox refreshes) wrote. */
export const getCurrentScore = async (ctx: AppContext, user: UserRow): Promise<CurrentScore> => {
  const latest = await ctx.readCache.read(
    `score:${user.id}`,
    () => latestScoreWithBaseline(ctx.db, user.id, TREND_MONTHS),
    () => [userTag(user.id), scoresTag(user.id)],
  );
  if (!latest) {
    // A real bureau can hold a file too thin to score; say so instead of failing.
    throw new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau has no score for this user yet. Try again later.');
  }
  return { score: latest.score, scoreDate: latest.scoreDate, baselineScore: latest.baselineScore };
};

/**
 * The factors of a file on record, as of its pull: computed once per file (the read cache holds the same object until
 * the next pull commits), and the same on every day until then.
 */
const factorsByFile = new WeakMap<CreditFile, TCreditScore['factors']>();
const factorsOf = ({ file, asOf }: FileOnRecord): TCreditScore['factors'] => {
  const known = factorsByFile.get(file);
  if (known) return known;
  const factors = creditFactors(file, asOf);
  factorsByFile.set(file, factors);
  return factors;
};

const trendOf = (change: number): TCreditTrend => ({
  direction: change > 0 ? 'up' : change < 0 ? 'down' : 'stable',
  change,
  period: '3months',
});

/** The credit score resource for a user's current score (reads, refresh now). */
export const creditScoreOf = async (
  ctx: AppContext,
  user: UserRow,
  record: FileOnRecord,
  current: CurrentScore,
): Promise<TCreditScore> => {
  const baseline =
    current.baselineScore !== undefined
      ? current.baselineScore
      : ((await scoreOnOrBefore(ctx.db, user.id, monthsBefore(new Date(`${current.scoreDate}T00:00:00Z`), TREND_MONTHS)))
          ?.score ?? null);
  return {
    score: current.score,
    scoreDate: current.scoreDate,
    scoreRange: { min: SCORE_MIN, max: SCORE_MAX },
    rating: ratingForScore(current.score),
    bureau: record.file.bureau,
    factors: factorsOf(record),
    trend: trendOf(baseline === null ? 0 : current.score - baseline),
  };
};

export const getCreditScore = async (ctx: AppContext, caller: Caller, userId: string): Promise<TCreditScore> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const record = await creditFileOnRecord(ctx, user);
  const score = await creditScoreOf(ctx, user, record, await getCurrentScore(ctx, user));
  await noteScoreLook(ctx, user.client_id, user.id, ctx.clock.now());
  return score;
};

/** Built once per file on record, like its factors; frozen and shared, so later reads reuse its JSON. */
const reportsByFile = new WeakMap<CreditFile, { userId: string; report: TCreditReport }>();
const reportOf = (userId: string, record: FileOnRecord): TCreditReport => {
  const known = reportsByFile.get(record.file);
  if (known?.userId === userId) return known.report;
  const report = sharedAnswerData(deepFreeze(creditReportOf(userId, record)));
  reportsByFile.set(record.file, { userId, report });
  return report;
};

/** Shared answer data is never changed again: frozen all the way down, so no caller can change it by mistake. */
const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
};

/** The credit report of the file on record: never a new pull, gated like the score (consent, freeze). */
export const getCreditReport = async (ctx: AppContext, caller: Caller, userId: string): Promise<TCreditReport> => {
  const user = await requireActiveUser(ctx, caller, userId);
  return reportOf(user.id, await creditFileOnRecord(ctx, user));
};

/**
 * What-if on the file on record; stores and pulls nothing. Actions are checked against the file first, so one that
 * does not fit costs no bureau call.
 */
export const simulateCreditScore = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TSimulationInput,
): Promise<TSimulation> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const record = await creditFileOnRecord(ctx, user);
  const current = await getCurrentScore(ctx, user);
  const actions = bureauActionsOf(user.id, record.file, input.actions);
  const simulated = await simulatedFileOf(record, actions);
  const bureau = requireBureau(ctx);
  const subject = await loadCreditSubject(ctx, user);
  const call = { clientId: user.client_id, callClass: 'interactive' } as const;
  const estimate = await asValidationError(() => bureau.simulateScore(subject, record.asOf, actions, call));
  return simulationOf(record, simulated, current.score, estimate, factorsOf(record));
};

export const listScoreHistory = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  query: TCreditHistoryQuery,
): Promise<{ items: TScoreHistoryEntry[]; pagination: TPagination }> => {
  const user = await requireActiveUser(ctx, caller, userId);
  await creditFileOnRecord(ctx, user);
  const beforeSeq = query.cursor ? decodeHistoryCursor(cursorsOf(ctx), user.id, query.months, query.cursor) : undefined;
  const since = monthsBefore(ctx.clock.now(), query.months);
  const { rows, total } = await listScoresSince(ctx.db, user.id, since, query.limit + 1, beforeSeq);
  const items = rows.slice(0, query.limit);
  const hasMore = rows.length > query.limit;
  const last = items.at(-1);
  return {
    items: items.map((r) => ({ score: r.score, date: r.scoreDate })),
    pagination: {
      hasMore,
      nextCursor: hasMore && last ? encodeHistoryCursor(cursorsOf(ctx), user.id, query.months, last.seq) : null,
      total,
    },
  };
};

/**
 * Sandbox: records a new score (the given one, or the next of the synthetic file) dated today.
 * The score, its events and a `score_change` alert (when it moved more than 10 points) commit together.
 */
export const refreshScore = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  requested: number | undefined,
  onSignificantChange: OnSignificantChange,
): Promise<TSandboxScoreRefreshResult> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const record = await creditFileOnRecord(ctx, user);
  await getCurrentScore(ctx, user);
  const now = ctx.clock.now();
  const scoreDate = now.toISOString().slice(0, 10);
  const { previous, score } = await writeUser(ctx, async (tx, touches) => {
    // A new score, not a new file: the file on record stays the last pull's.
    touches(scoresTag(user.id));
    await lockUserForScores(tx, user.id);
    const [latest] = await latestScores(tx, user.id, 1);
    const previousScore = latest?.score ?? null;
    const refreshes = await countScores(tx, user.id, 'refresh');
    const next =
      requested ?? nextSandboxScore(user.id, previousScore ?? record.file.monthlyScores.at(-1)?.score ?? 700, refreshes + 1);
    await storeScores(tx, [
      { userId: user.id, clientId: user.client_id, score: next, scoreDate, source: 'refresh', createdAt: now },
    ]);
    await noteCustomerScore(tx, user.client_id, user.id, next);
    await recordScoreChange(tx, ctx, user, { previousScore, score: next, scoreDate }, onSignificantChange);
    return { previous: previousScore, score: next };
  });
  return { ...(await creditScoreOf(ctx, user, record, { score, scoreDate })), previousScore: previous };
};

/** What recording a pulled file's score did: the score before it (null on the first pull) and the one now on file. */
export interface RecordedScore {
  previousScore: number | null;
  score: number;
  scoreDate: string;
  /** With `rowWritesDate`: the last_score_date the caller's update of the user row is to set (null: unchanged). */
  lastScoreDate: string | null;
}

/**
 * Records the score of a file pulled by monitoring or refresh now, in the caller's transaction, which must hold the user
 * row (monitoring's refresh locks it first: one lock, not one per step). The first pull seeds the
 * history with the file's monthly scores (announced as `score.updated` with previousScore null); a later one appends
 * one point dated `asOf` and announces it (`score.changed` and a `score_change` alert past the threshold). The first
 * comparison on a day that already has a point (a sandbox score refresh made before it) adds nothing.
 */
export const recordPulledScore = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  file: CreditFile,
  asOf: Date,
  options: {
    source: 'monitoring' | 'refresh';
    firstComparison: boolean;
    onSignificantChange: OnSignificantChange;
    /** The newest history point when the caller already read it under the row lock (null: none yet); else read here. */
    latest?: { score: number; scoreDate: string } | null;
    /** The caller's own update of the user row sets last_score_date (RecordedScore.lastScoreDate): one row version. */
    rowWritesDate?: boolean;
  },
): Promise<RecordedScore> => {
  const rowWritesDate = options.rowWritesDate ?? false;
  const scoreDate = asOf.toISOString().slice(0, 10);
  const score = file.monthlyScores.at(-1)?.score;
  const latest = options.latest !== undefined ? (options.latest ?? undefined) : (await latestScores(tx, user.id, 1))[0];
  if (!latest) {
    const storedThrough = await seedScoreHistory(tx, ctx, user, file, rowWritesDate);
    if (score !== undefined) await noteCustomerScore(tx, user.client_id, user.id, score);
    return { previousScore: null, score: score ?? 0, scoreDate, lastScoreDate: rowWritesDate ? storedThrough : null };
  }
  if (score === undefined || (options.firstComparison && latest.scoreDate === scoreDate)) {
    return { previousScore: latest.score, score: latest.score, scoreDate: latest.scoreDate, lastScoreDate: null };
  }
  const point = {
    userId: user.id,
    clientId: user.client_id,
    score,
    scoreDate,
    source: options.source,
    createdAt: ctx.clock.now(),
  };
  const storedThrough = await storeScores(tx, [point], rowWritesDate);
  await noteCustomerScore(tx, user.client_id, user.id, score);
  await recordScoreChange(tx, ctx, user, { previousScore: latest.score, score, scoreDate }, options.onSignificantChange);
  return { previousScore: latest.score, score, scoreDate, lastScoreDate: rowWritesDate ? storedThrough : null };
};
