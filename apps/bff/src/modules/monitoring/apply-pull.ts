import type { CreditFile } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordAlert, recordScoreChangeAlert } from '../alerts/service.ts';
import { type OnSignificantChange, type RecordedScore, recordPulledScore } from '../credit/service.ts';
import type { UserRow } from '../users/service.ts';
import { detectAlerts } from './file-diff.ts';
import { type FileSnapshot, snapshotOf } from './file-snapshot.ts';
import { claimAlertKey, type RefreshState, type SnapshotToSave } from './repo.ts';

const snapshotContext = (userId: string) => `credit_snapshots:${userId}`;

/** No alert at the first comparison: a move from a score a read stored earlier is not news to the customer. */
const noAlert: OnSignificantChange = async () => undefined;

export interface AppliedPull extends RecordedScore {
  alertsRaised: number;
  /** The snapshot the next comparison starts from: the caller saves it with its own update of the user row. */
  snapshot: SnapshotToSave;
}

/**
 * Everything one pulled file causes, in the caller's transaction (which holds the user row and read `state` under that
 * lock, lockRefreshState): the score recorded (history point, `score.updated`, `score.changed` and `score_change` past
 * the threshold), an alert for each difference from the previous file whose subject never alerted before, and the new
 * snapshot the next comparison starts from (answered, for the caller to save with its update of the user: one
 * statement). With no previous snapshot this is the first comparison: only what a customer should see at once is raised.
 * `ctx.clock` is the user's "now" (a sandbox clock's time for a user on a clock): every date written comes from it.
 * Answers undefined, changing nothing, when a newer pull has already committed (a refresh now that raced a scheduled
 * refresh): an older file must never overwrite the newer snapshot or add a history point out of order.
 */
export const applyPulledFile = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  state: Pick<RefreshState, 'snapshot' | 'latestScore'>,
  file: CreditFile,
  asOf: Date,
  source: 'monitoring' | 'refresh',
): Promise<AppliedPull | undefined> => {
  const now = ctx.clock.now();
  const stored = state.snapshot;
  if (stored && stored.asOf.getTime() > asOf.getTime()) return undefined;
  const previous = stored ? (JSON.parse(ctx.cipher.decrypt(stored.sealed, snapshotContext(user.id))) as FileSnapshot) : null;
  const next = snapshotOf(file, asOf);
  const recorded = await recordPulledScore(tx, ctx, user, file, asOf, {
    source,
    firstComparison: previous === null,
    onSignificantChange: previous === null ? noAlert : recordScoreChangeAlert(ctx),
    latest: state.latestScore,
  });
  let alertsRaised = 0;
  for (const detected of detectAlerts(previous, next, asOf)) {
    if (!(await claimAlertKey(tx, user.id, ctx.tokens.candidates(`${user.id}:${detected.key}`), now))) continue;
    await recordAlert(tx, ctx, user, detected.draft);
    alertsRaised += 1;
  }
  const snapshot = {
    clientId: user.client_id,
    sealed: ctx.cipher.encrypt(JSON.stringify(next), snapshotContext(user.id)),
    asOf,
    takenAt: now,
  };
  return { ...recorded, alertsRaised, snapshot };
};
