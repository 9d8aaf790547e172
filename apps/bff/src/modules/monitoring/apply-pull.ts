import type { CreditFile, CreditFileResult } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { recordAlert, recordScoreChangeAlert } from '../alerts/service.ts';
import { recordAudit } from '../audit/service.ts';
import { type OnSignificantChange, type RecordedScore, recordPulledScore, sealCreditFile } from '../credit/service.ts';
import { saveOfferProfile } from '../offers/service.ts';
import { consentPause, type UserRow } from '../users/service.ts';
import { detectAlerts } from './file-diff.ts';
import { type FileSnapshot, snapshotOf } from './file-snapshot.ts';
import { claimAlertKey, lockRefreshState, type RefreshState, type SnapshotToSave } from './repo.ts';

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
  for (const detected of detectAlerts(previous, next, asOf, user.id)) {
    if (!(await claimAlertKey(tx, user.id, ctx.tokens.candidates(`${user.id}:${detected.key}`), now))) continue;
    await recordAlert(tx, ctx, user, detected.draft);
    alertsRaised += 1;
  }
  const snapshot = {
    clientId: user.client_id,
    sealed: ctx.cipher.encrypt(JSON.stringify(next), snapshotContext(user.id)),
    fileSealed: sealCreditFile(ctx, user.id, file),
    asOf,
    takenAt: now,
  };
  return { ...recorded, alertsRaised, snapshot };
};

/** The three moments that buy a credit file. */
export type PullSource = 'verification' | 'monitoring' | 'refresh';

/** Why a pulled file was dropped unused: the user is gone or not verified, the period moved on, or consent ended. */
export type DropReason = 'deleted' | 'not_active' | 'period_moved' | 'no_consent';

export type PullCommit =
  | { outcome: 'committed'; state: RefreshState; applied: AppliedPull | undefined }
  | { outcome: 'frozen'; state: RefreshState }
  | { outcome: 'dropped'; reason: DropReason; state: RefreshState | undefined };

/**
 * The one unit that commits a pulled credit file, for verification's first pull, each monitoring period and refresh
 * now, in the caller's transaction. Under the user's row lock it re-checks what may have changed while the bureau
 * answered (deletion, status, the claimed period, consent at `asOf`); a file that passes becomes the file on record
 * with its history point, alerts, events (applyPulledFile) and a `credit_file.recorded` audit entry, all committed or
 * none. A dropped file writes nothing; the caller records what the drop means for its schedule or its answer.
 * The caller saves `applied.snapshot` with its own update of the user row (one statement).
 */
export const commitPulledFile = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  pull: { result: CreditFileResult; asOf: Date; source: PullSource; pullId: string; period?: number },
): Promise<PullCommit> => {
  const state = await lockRefreshState(tx, user.id);
  if (!state || state.deleted) return { outcome: 'dropped', reason: 'deleted', state };
  if (state.status !== 'active') return { outcome: 'dropped', reason: 'not_active', state };
  if (pull.period !== undefined && state.monitoring_period !== pull.period) {
    return { outcome: 'dropped', reason: 'period_moved', state };
  }
  if (consentPause({ consent_valid_until: state.consentValidUntil, consent_ended: null }, pull.asOf)) {
    return { outcome: 'dropped', reason: 'no_consent', state };
  }
  if (pull.result.status === 'frozen') return { outcome: 'frozen', state };
  const applied = await applyPulledFile(
    tx,
    ctx,
    user,
    state,
    pull.result.file,
    pull.asOf,
    pull.source === 'refresh' ? 'refresh' : 'monitoring',
  );
  if (applied) {
    await saveOfferProfile(tx, ctx, user, pull.result.file, pull.asOf);
    await recordAudit(
      ctx,
      {
        type: 'credit_file.recorded',
        clientId: user.client_id,
        userId: user.id,
        ...(pull.source === 'monitoring' ? { actor: { kind: 'job', id: 'monitoring' } } : {}),
        subject: { source: pull.source, pullId: pull.pullId, asOf: pull.asOf.toISOString() },
      },
      tx,
    );
  }
  return { outcome: 'committed', state, applied };
};
