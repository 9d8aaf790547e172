import type { CreditFile, CreditFileResult } from '../../bureau/provider.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { StatementBatch } from '../../db/statement-batch.ts';
import { recordAlert, recordScoreChangeAlert } from '../alerts/service.ts';
import { recordAudit } from '../audit/service.ts';
import { type OnSignificantChange, type RecordedScore, recordPulledScore, sealCreditFile } from '../credit/service.ts';
import { saveOfferProfile } from '../offers/service.ts';
import { consentPause, loadCreditSubject, refreshTriggerDue, type UserRow } from '../users/service.ts';
import { detectAlerts } from './file-diff.ts';
import { type FileSnapshot, snapshotOf } from './file-snapshot.ts';
import { claimAlertKey, lockRefreshState, type RefreshState, type SnapshotToSave, saveSnapshot } from './repo.ts';
import { settleTriggers, storeTriggers } from './trigger-repo.ts';

const snapshotContext = (userId: string) => `credit_snapshots:${userId}`;

/** No alert at the first comparison: a move from a score a read stored earlier is not news to the customer. */
const noAlert: OnSignificantChange = async () => undefined;

export interface AppliedPull extends RecordedScore {
  alertsRaised: number;
  /** The snapshot the next comparison starts from, with the file on record: saved with the user row's update. */
  snapshot: SnapshotToSave;
}

/**
 * Everything one pulled file causes, in the caller's transaction (which holds the user row and read `state` under that
 * lock, lockRefreshState): the score recorded (history point, `score.updated`, `score.changed` and `score_change` past
 * the threshold), an alert for each difference from the previous file whose subject never alerted before, and the new
 * snapshot the next comparison starts from (answered, for commitPulledFile to save with the update of the user row: one
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
    rowWritesDate: true,
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

/** The four moments that buy a credit file: verification, a period, refresh now, and a bureau trigger. */
export type PullSource = 'verification' | 'monitoring' | 'refresh' | 'trigger';

/**
 * Why a pulled file was dropped unused: the user is gone or not verified, the period moved on, consent ended, or the
 * triggers a triggered pull was for were settled by another pull meanwhile.
 */
export type DropReason = 'deleted' | 'not_active' | 'period_moved' | 'no_consent' | 'trigger_settled';

const DAY_START = 'T00:00:00.000Z';

/**
 * Settles the triggers a file as of `asOf` shows, stores the sandbox's next change as a trigger on its day, and moves
 * the user's trigger instant on. Nothing to do (no statement) when no trigger is pending and the bureau schedules none.
 */
const settleTriggersOf = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  state: RefreshState,
  pull: { result: CreditFileResult; asOf: Date; source: PullSource; pullId: string },
) => {
  const nextChange =
    ctx.bureau?.nextFileChange && pull.result.status === 'ok'
      ? await ctx.bureau.nextFileChange(
          await loadCreditSubject(ctx, { ...user, consent_valid_until: state.consentValidUntil }, pull.asOf),
          pull.asOf,
        )
      : null;
  if (state.triggerDueAt === null && nextChange === null) return;
  const now = ctx.clock.now();
  await settleTriggers(tx, user.id, pull.asOf, pull.pullId, now);
  if (nextChange) {
    const trigger = {
      id: `chg_${user.id}_${nextChange.on}`,
      clientId: user.client_id,
      userId: user.id,
      types: nextChange.types,
      occurredOn: nextChange.on,
      effectiveAt: new Date(`${nextChange.on}${DAY_START}`),
    };
    await storeTriggers(tx, [trigger], now);
  }
  // A period's and a triggered pull's own finishing statement sets the next attempt.
  await refreshTriggerDue(tx, user.id, pull.source === 'refresh' || pull.source === 'verification');
};

/**
 * The caller's update of the user row at a pull's end (its schedule's next step), which the commit unit writes after
 * the re-checks: with the file on record in one statement when the file commits, or saying the file is frozen.
 */
export interface PullFinish {
  /** `lastScoreDate`: the newest stored score's date, for the row's last_score_date (null: no score was stored). */
  committed(batch: Queryable, lastScoreDate: string | null, state: RefreshState): Promise<void>;
  frozen(tx: Queryable, state: RefreshState): Promise<void>;
}

export type PullCommit =
  | { outcome: 'committed'; state: RefreshState; applied: AppliedPull | undefined }
  | { outcome: 'frozen'; state: RefreshState }
  | { outcome: 'dropped'; reason: DropReason; state: RefreshState | undefined };

/**
 * The one unit that commits a pulled credit file, for verification's first pull, each monitoring period and refresh
 * now, in the caller's transaction. Under the user's row lock it re-checks what may have changed while the bureau
 * answered (deletion, status, the claimed period, consent at `asOf`); a file that passes becomes the file on record
 * with its history point, alerts, events (applyPulledFile) and a `credit_file.recorded` audit entry, all committed or
 * none, and the caller's `finish` of the user row is written with it; a frozen file writes `finish.frozen`. A dropped
 * file writes nothing; the caller records what the drop means for its schedule or its answer.
 */
export const commitPulledFile = async (
  tx: Queryable,
  ctx: AppContext,
  user: UserRow,
  pull: { result: CreditFileResult; asOf: Date; source: PullSource; pullId: string; period?: number },
  finish: PullFinish,
  /** The user's state when the caller has locked it already (a group commit, lockRefreshStates). */
  locked?: { state: RefreshState | undefined },
): Promise<PullCommit> => {
  const state = locked ? locked.state : await lockRefreshState(tx, user.id);
  if (!state || state.deleted) return { outcome: 'dropped', reason: 'deleted', state };
  if (state.status !== 'active') return { outcome: 'dropped', reason: 'not_active', state };
  if (pull.period !== undefined && state.monitoring_period !== pull.period) {
    return { outcome: 'dropped', reason: 'period_moved', state };
  }
  if (consentPause({ consent_valid_until: state.consentValidUntil, consent_ended: null }, pull.asOf)) {
    return { outcome: 'dropped', reason: 'no_consent', state };
  }
  if (pull.source === 'trigger' && state.triggerDueAt === null) return { outcome: 'dropped', reason: 'trigger_settled', state };
  await settleTriggersOf(tx, ctx, user, state, pull);
  if (pull.result.status === 'frozen') {
    await finish.frozen(tx, state);
    return { outcome: 'frozen', state };
  }
  const applied = await applyPulledFile(
    tx,
    ctx,
    user,
    state,
    pull.result.file,
    pull.asOf,
    pull.source === 'refresh' ? 'refresh' : 'monitoring',
  );
  const finishing = new StatementBatch();
  if (applied) await saveSnapshot(finishing, user.id, applied.snapshot);
  await finish.committed(finishing, applied?.lastScoreDate ?? null, state);
  await finishing.run(tx);
  if (applied) {
    await saveOfferProfile(tx, ctx, user, pull.result.file, pull.asOf);
    await recordAudit(
      ctx,
      {
        type: 'credit_file.recorded',
        clientId: user.client_id,
        userId: user.id,
        ...(pull.source === 'monitoring' || pull.source === 'trigger' ? { actor: { kind: 'job', id: 'monitoring' } } : {}),
        subject: { source: pull.source, pullId: pull.pullId, asOf: pull.asOf.toISOString() },
      },
      tx,
    );
  }
  return { outcome: 'committed', state, applied };
};
