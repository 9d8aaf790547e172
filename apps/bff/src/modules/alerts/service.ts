import type { TAlert, TAlertType, TListAlertsQuery, TUpdateAlertInput } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { queueEmailForAlert } from '../alert-emails/service.ts';
import {
  creditFileOnRecord,
  getCurrentScore,
  loadFileOnRecord,
  type OnSignificantChange,
  pullIdentityFile,
  requireActiveUser,
} from '../credit/service.ts';
import { loadCreditSubject, type UserRow } from '../users/service.ts';
import { type AlertDraft, scoreChangeAlertDraft } from './alert-draft.ts';
import { insertAlert, lastTwoScores, listUserAlerts, markAlertRead, toAlert } from './repo.ts';
import { sandboxAlertDraft } from './sandbox-alert-drafts.ts';

export { ACCOUNT_LABELS, type AlertDraft, scoreChangeAlertDraft, usd } from './alert-draft.ts';

/**
 * Stores a new `unread` alert and writes `alert.created` in the caller's transaction, with the customer's alert e-mail
 * when their bank has those on, so the alert, its event and its e-mail commit together or not at all.
 */
export const recordAlert = async (tx: Queryable, ctx: AppContext, user: UserRow, draft: AlertDraft): Promise<TAlert> => {
  const createdAt = ctx.clock.now();
  const row = await insertAlert(tx, {
    id: ctx.ids.id('alt'),
    userId: user.id,
    clientId: user.client_id,
    type: draft.type,
    title: draft.title,
    message: draft.message,
    severity: draft.severity,
    data: draft.data,
    createdAt,
  });
  const alert = toAlert(row);
  await recordEvent(tx, ctx.ids, {
    clientId: user.client_id,
    type: 'alert.created',
    createdAt,
    data: {
      userId: user.id,
      externalUserId: user.external_user_id,
      alert: {
        alertId: alert.alertId,
        type: alert.type,
        title: alert.title,
        message: alert.message,
        severity: alert.severity,
      },
    },
  });
  await queueEmailForAlert(tx, ctx, { alertId: alert.alertId, clientId: user.client_id, userId: user.id, createdAt });
  return alert;
};

/** The `score_change` alert of a significant move (credit's refresh calls this inside its transaction). */
export const recordScoreChangeAlert =
  (ctx: AppContext): OnSignificantChange =>
  (tx, user, move) =>
    recordAlert(tx, ctx, user, scoreChangeAlertDraft(move.previousScore, move.score));

/** Stores and announces an alert in a transaction of its own. */
export const createAlert = async (ctx: AppContext, user: UserRow, draft: AlertDraft): Promise<TAlert> =>
  ctx.db.transaction((tx) => recordAlert(tx, ctx, user, draft));

/**
 * Alerts are credit monitoring, so the user must be `active`; a frozen file does not stop them
 * (a freeze blocks lenders, and monitoring is exactly what a frozen consumer still wants).
 */
export const listAlerts = async (ctx: AppContext, caller: Caller, userId: string, query: TListAlertsQuery) => {
  const user = await requireActiveUser(ctx, caller, userId);
  const page = await listUserAlerts(ctx.db, caller.clientId, user.id, query, cursorsOf(ctx));
  return { items: page.items.map(toAlert), pagination: page.pagination };
};

/** `{status: "read"}` is the only change; marking a read alert read again answers it unchanged. */
export const updateAlert = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  alertId: string,
  _input: TUpdateAlertInput,
): Promise<TAlert> => {
  const user = await requireActiveUser(ctx, caller, userId);
  const row = await markAlertRead(ctx.db, caller.clientId, user.id, alertId, ctx.clock.now());
  if (!row) throw notFound('Alert');
  return toAlert(row);
};

/** The user's last two stored scores. */
const lastScoreMove = async (ctx: AppContext, user: UserRow) => {
  const current = await getCurrentScore(ctx, user);
  const [latest = current.score, previous = latest] = await lastTwoScores(ctx.db, user.client_id, user.id);
  return { previous, current: latest };
};

/**
 * Sandbox helper: an alert of `type` drawn from the user's own file on record, frozen or not (monitoring does not stop
 * for a freeze). A user whose only pull found the file frozen has no file on record: the sandbox's identity file,
 * which a freeze does not block, stands in. `score_change` reports the user's last two stored scores, refused like
 * the score itself for a frozen file, so a freeze never leaks a score.
 */
export const createSandboxAlert = async (ctx: AppContext, caller: Caller, userId: string, type: TAlertType): Promise<TAlert> => {
  const user = await requireActiveUser(ctx, caller, userId);
  // Gated like a score read: no consent or a frozen file refuses it before anything is written.
  if (type === 'score_change') await creditFileOnRecord(ctx, user);
  const scores = type === 'score_change' ? await lastScoreMove(ctx, user) : undefined;
  const subject = await loadCreditSubject(ctx, user);
  const file = (await loadFileOnRecord(ctx, user.id))?.file ?? (await pullIdentityFile(ctx, user)).file;
  const draft = sandboxAlertDraft(type, { userId: user.id, file, subject, scores, asOf: ctx.clock.now() });
  return createAlert(ctx, user, draft);
};
