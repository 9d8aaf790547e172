import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordAlert, scoreChangeAlertDraft } from '../alerts/service.ts';
import { recordEvent } from '../outbox/repo.ts';
import type { UserRow } from '../users/repo.ts';

/** A move of more than this many points is a `score.changed` event and a `score_change` alert. */
export const SIGNIFICANT_CHANGE = 10;

/** Writes the events (and alert) a new score causes, in the caller's transaction. */
export const recordScoreChange = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  move: { previousScore: number | null; score: number; scoreDate: string },
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
  await recordAlert(tx, ctx, user, scoreChangeAlertDraft(move.previousScore, move.score));
};
