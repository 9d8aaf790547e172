import type { TAlertEmailSuppressedReason } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { randomToken } from '../../lib/ids.ts';
import { publicBaseUrl } from '../../lib/public-url.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { type ClientAlertEmailSettings, clientAlertEmailSettings } from '../clients/service.ts';
import { consentPause, findConsentGate } from '../users/service.ts';
import { type AlertMailer, type OutgoingAlertEmail, smtpErrorClass } from './mailer.ts';
import { composeAlertEmail } from './message.ts';
import {
  type ClaimedAlertEmail,
  type HeldAlertEmail,
  holdLeasedAlertEmail,
  insertUnsubscribeToken,
  lockRecipient,
  markFailed,
  markSent,
  markSuppressed,
  type RecipientRow,
  scheduleRetry,
  startAttempt,
} from './repo.ts';

/** Where an e-mail's one-click unsubscribe goes (RFC 8058): a page of this API, outside the partner contract. */
export const UNSUBSCRIBE_PATH = '/email/unsubscribe';

/** What an unsubscribe token looks like: the only form looked up. */
export const UNSUBSCRIBE_TOKEN_SHAPE = /^[A-Za-z0-9]{32}$/;
const UNSUBSCRIBE_TOKEN_LENGTH = 32;

export type SendOutcome = 'sent' | 'suppressed' | 'retried' | 'failed' | 'lost';

/** Why the e-mail must not go, read under the recipient's row lock; null when it may. */
const suppressionOf = async (
  tx: Queryable,
  recipient: RecipientRow | undefined,
  settings: ClientAlertEmailSettings | undefined,
  now: Date,
): Promise<TAlertEmailSuppressedReason | null> => {
  if (!recipient || recipient.deleted || !recipient.email) return 'user_deleted';
  // The consent gate at the customer's own time: their test clock's in the sandbox.
  const pause = consentPause(await findConsentGate(tx, recipient.id), recipient.clock_time ?? now);
  if (pause) return pause;
  if (recipient.unsubscribed) return 'unsubscribed';
  if (!settings?.enabled || !settings.linkUrl) return 'alert_emails_off';
  return null;
};

const eventFields = (claimed: ClaimedAlertEmail, email: HeldAlertEmail, recipient: RecipientRow | undefined) => ({
  userId: claimed.user_id,
  externalUserId: recipient?.external_user_id ?? null,
  emailId: email.id,
  mode: email.mode,
  alertIds: email.alert_ids,
  alertCount: email.alert_ids.length,
});

/** Production links must be https (RFC 8058 asks it of List-Unsubscribe); a local sandbox serves plain http. */
const unsubscribeBase = (ctx: AppContext): string | undefined => {
  const base = publicBaseUrl(ctx.config);
  return ctx.config.APP_ENV === 'production' && !base.startsWith('https://') ? undefined : base;
};

type Prepared =
  | { kind: 'lost' }
  | { kind: 'suppressed' }
  | { kind: 'send'; mail: OutgoingAlertEmail; fields: ReturnType<typeof eventFields> }
  | { kind: 'unsendable'; error: string; attempts: number; fields: ReturnType<typeof eventFields> };

/**
 * Under the recipient's row lock and the e-mail's: still this worker's, still wanted (the customer live, consenting,
 * subscribed; the client's e-mails on)? Either it ends `suppressed` with its event, or the attempt is counted with a
 * fresh unsubscribe token and the message is made from the user row as it is now.
 */
const prepare = (ctx: AppContext, claimed: ClaimedAlertEmail, leaseToken: string, now: Date): Promise<Prepared> =>
  ctx.db.transaction(async (tx) => {
    const recipient = await lockRecipient(tx, claimed.client_id, claimed.user_id);
    const email = await holdLeasedAlertEmail(tx, { id: claimed.id, clientId: claimed.client_id, leaseToken, now });
    if (!email) return { kind: 'lost' };
    const settings = await clientAlertEmailSettings(tx, claimed.client_id);
    const fields = eventFields(claimed, email, recipient);
    const reason = await suppressionOf(tx, recipient, settings, now);
    if (reason || !recipient?.email || !settings?.linkUrl) {
      const why = reason ?? 'alert_emails_off';
      await markSuppressed(tx, { id: email.id, clientId: claimed.client_id, reason: why, at: now });
      await recordEvent(tx, ctx.ids, {
        clientId: claimed.client_id,
        type: 'alert.email.suppressed',
        createdAt: now,
        data: { ...fields, reason: why },
      });
      return { kind: 'suppressed' };
    }
    const leaseUntil = new Date(now.getTime() + ctx.config.ALERT_EMAIL_LEASE_SECONDS * 1000);
    await startAttempt(tx, { id: email.id, clientId: claimed.client_id, at: now, leaseUntil });
    const attempt = email.attempts + 1;
    const base = unsubscribeBase(ctx);
    if (!base) return { kind: 'unsendable', error: 'PUBLIC_URL_NOT_HTTPS', attempts: attempt, fields };
    const token = randomToken(UNSUBSCRIBE_TOKEN_LENGTH);
    await insertUnsubscribeToken(tx, {
      tokenHash: ctx.tokens.hash(token),
      clientId: claimed.client_id,
      userId: claimed.user_id,
      emailId: email.id,
      createdAt: now,
    });
    const bankName = settings.displayName ?? settings.clientName;
    const unsubscribeUrl = `${base}${UNSUBSCRIBE_PATH}?t=${token}`;
    const composed = composeAlertEmail({
      locale: recipient.locale,
      bankName,
      firstName: recipient.first_name,
      alertCount: email.alert_ids.length,
      digestDay: email.mode === 'daily_digest' ? email.digest_day : null,
      linkUrl: settings.linkUrl,
      unsubscribeUrl,
      logoUrl: settings.logoUrl,
      brandColor: settings.brandColor,
    });
    return {
      kind: 'send',
      fields,
      mail: {
        ...composed,
        emailId: email.id,
        attempt,
        fromName: bankName,
        to: recipient.email,
        replyTo: settings.replyTo,
        unsubscribeUrl,
      },
    };
  });

/** A failed attempt: retried after the schedule's next wait, or, after the last retry, `failed` with its event. */
const settleFailure = async (
  ctx: AppContext,
  claimed: ClaimedAlertEmail,
  leaseToken: string,
  failure: { error: string; attempts: number; fields: ReturnType<typeof eventFields> },
): Promise<SendOutcome> => {
  const now = ctx.clock.now();
  const schedule = ctx.config.ALERT_EMAIL_RETRY_SCHEDULE;
  const settle = { id: claimed.id, clientId: claimed.client_id, leaseToken, at: now, error: failure.error };
  if (failure.attempts <= schedule.length) {
    const wait = schedule[failure.attempts - 1] ?? 0;
    await scheduleRetry(ctx.db, { ...settle, nextAttemptAt: new Date(now.getTime() + wait) });
    return 'retried';
  }
  return ctx.db.transaction(async (tx) => {
    const attempts = await markFailed(tx, settle);
    if (attempts === undefined) return 'lost';
    await recordEvent(tx, ctx.ids, {
      clientId: claimed.client_id,
      type: 'alert.email.failed',
      createdAt: now,
      data: { ...failure.fields, attempts, lastError: failure.error },
    });
    return 'failed';
  });
};

/** One claimed e-mail: checked and counted, handed to the mail server, and its outcome recorded with its event. */
export const sendClaimedAlertEmail = async (
  ctx: AppContext,
  mailer: AlertMailer,
  claimed: ClaimedAlertEmail,
  leaseToken: string,
): Promise<SendOutcome> => {
  const prepared = await prepare(ctx, claimed, leaseToken, ctx.clock.now());
  if (prepared.kind === 'lost' || prepared.kind === 'suppressed') return prepared.kind;
  if (prepared.kind === 'unsendable') {
    ctx.logger.warn(
      { emailId: claimed.id },
      'alert e-mail not sent: production needs an https PUBLIC_URL for its unsubscribe link',
    );
    return settleFailure(ctx, claimed, leaseToken, prepared);
  }
  try {
    await mailer.send(prepared.mail);
  } catch (error) {
    const errorClass = smtpErrorClass(error);
    ctx.logger.warn({ emailId: claimed.id, error: errorClass }, 'alert e-mail hand-over failed');
    return settleFailure(ctx, claimed, leaseToken, {
      error: errorClass,
      attempts: prepared.mail.attempt,
      fields: prepared.fields,
    });
  }
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const attempts = await markSent(tx, { id: claimed.id, clientId: claimed.client_id, leaseToken, at: now });
    if (attempts === undefined) return 'lost';
    await recordEvent(tx, ctx.ids, {
      clientId: claimed.client_id,
      type: 'alert.email.sent',
      createdAt: now,
      data: { ...prepared.fields, attempts, sentAt: now.toISOString() },
    });
    return 'sent';
  });
};
