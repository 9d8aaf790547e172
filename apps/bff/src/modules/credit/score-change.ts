import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import type { UserRow } from '../users/service.ts';

/** A move of more than this many points is a `score.changed` event and a `score_change` alert. */
export const SIGNIFICANT_CHANGE = 10;

export interface ScoreMove {
  previousScore: number | null;
  score: number;
  scoreDate: string;
}

/**
 * What else a significant move causes, in the same transaction: the `score_change` alert. Alerts sit above credit
 * (they read scores), so whoever records a score passes it in rather than credit importing alerts.
 */
export type OnSignificantChange = (tx: Queryable, user: UserRow, move: ScoreMove & { previousScore: number }) => Promise<unknown>;

/** Writes the events a new score causes, and calls `onSignificantChange` past the threshold, in the caller's transaction. */
export const recordScoreChange = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  move: ScoreMove,
  onSignificantChange: OnSignificantChange,
): Promise<void> => {
  const createdAt = ctx.clock.now();
  const change = move.previousScore === null ? 0 : move.score - move.previousScore;
  const data = {
    userId: user.id,
    externalUserId: user.external_user_id,
    score: move.score,
    previousScore: move.previousScore,
    change,
    scoreDate: move.scoreDate,
  };
  await recordEvent(tx, ctx.ids, { clientId: user.client_id, type: 'score.updated', data, createdAt });
  if (move.previousScore === null || Math.abs(change) <= SIGNIFICANT_CHANGE) return;
  await recordEvent(tx, ctx.ids, {
    clientId: user.client_id,
    type: 'score.changed',
    data: { ...data, direction: change > 0 ? 'up' : 'down' },
    createdAt,
  });
  await onSignificantChange(tx, user, { ...move, previousScore: move.previousScore });
};
