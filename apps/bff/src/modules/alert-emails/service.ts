import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { realNow } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { eachLimited, type PollLoop, startPollLoop } from '../../lib/poll-loop.ts';
import { clientAlertEmailSettings } from '../clients/service.ts';
import { markAlertEmailsUnsubscribed } from '../users/service.ts';
import { type AlertMailer, createAlertMailer } from './mailer.ts';
import {
  claimDueAlertEmails,
  deleteSettledBefore,
  findUnsubscribeToken,
  queueAlertEmail,
  type UnsubscribeTokenRow,
} from './repo.ts';
import { type SendOutcome, sendClaimedAlertEmail, UNSUBSCRIBE_TOKEN_SHAPE } from './sender.ts';

export { type AlertMailer, createAlertMailer } from './mailer.ts';
export { UNSUBSCRIBE_PATH } from './sender.ts';

const DAY_MS = 86_400_000;

/**
 * In the alert's own transaction (recordAlert): queues its e-mail when the client has alert e-mails on and the user
 * has an address and has not unsubscribed. Ids only: the address and first name are read from the user row when the
 * e-mail is sent. `ctx.clock` is the customer's now (a sandbox test clock's time for a user on one).
 */
export const queueEmailForAlert = async (
  tx: Queryable,
  ctx: AppContext,
  alert: { alertId: string; clientId: string; userId: string; createdAt: Date },
): Promise<void> => {
  const day = alert.createdAt.toISOString().slice(0, 10);
  await queueAlertEmail(tx, {
    emailId: ctx.ids.id('eml'),
    clientId: alert.clientId,
    userId: alert.userId,
    alertId: alert.alertId,
    alertAt: alert.createdAt,
    digestDay: day,
    digestDueAt: new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS),
    realNow: realNow(ctx.clock),
  });
};

export type AlertEmailReport = { claimed: number } & Record<SendOutcome, number>;

const emptyReport = (): AlertEmailReport => ({ claimed: 0, sent: 0, suppressed: 0, retried: 0, failed: 0, lost: 0 });

/**
 * Claims one batch of due e-mails and sends them, ALERT_EMAIL_CONCURRENCY at a time. One that throws (the database)
 * keeps its lease until it runs out, and is taken again then; it never stops the batch.
 */
export const runAlertEmailBatch = async (ctx: AppContext, mailer: AlertMailer): Promise<AlertEmailReport> => {
  const now = realNow(ctx.clock);
  const leaseToken = randomToken();
  const claimed = await claimDueAlertEmails(ctx.db, {
    now,
    leaseUntil: new Date(now.getTime() + ctx.config.ALERT_EMAIL_LEASE_SECONDS * 1000),
    leaseToken,
    limit: ctx.config.ALERT_EMAIL_BATCH_SIZE,
  });
  const report: AlertEmailReport = { ...emptyReport(), claimed: claimed.length };
  await eachLimited(claimed, ctx.config.ALERT_EMAIL_CONCURRENCY, async (email) => {
    try {
      report[await sendClaimedAlertEmail(ctx, mailer, email, leaseToken)] += 1;
    } catch (error) {
      report.lost += 1;
      ctx.logger.error({ err: error, emailId: email.id }, 'alert e-mail failed; its lease will expire and it is retried');
    }
  });
  return report;
};

/** Runs batches until none is due: what a test or a one-off pass calls. */
export const runAlertEmailsUntilIdle = async (ctx: AppContext, given?: AlertMailer): Promise<AlertEmailReport> => {
  const mailer = given ?? createAlertMailer(ctx);
  const total = emptyReport();
  try {
    for (;;) {
      const batch = await runAlertEmailBatch(ctx, mailer);
      if (batch.claimed === 0) return total;
      for (const key of Object.keys(total) as (keyof AlertEmailReport)[]) total[key] += batch[key];
    }
  } finally {
    if (!given) mailer.close();
  }
};

const PRUNE_CHUNK_ROWS = 2_000;

/** Settled e-mails and their unsubscribe links are kept as long as alerts are (ALERT_RETENTION_MONTHS). */
export const pruneSettledAlertEmails = async (ctx: AppContext): Promise<number> => {
  const cutoff = new Date(realNow(ctx.clock));
  cutoff.setUTCMonth(cutoff.getUTCMonth() - ctx.config.ALERT_RETENTION_MONTHS);
  let deleted = 0;
  for (;;) {
    const chunk = await deleteSettledBefore(ctx.db, cutoff, PRUNE_CHUNK_ROWS);
    deleted += chunk;
    if (chunk < PRUNE_CHUNK_ROWS) return deleted;
  }
};

/**
 * The worker role's alert e-mail loop: batches back to back while any is due, else a look every
 * ALERT_EMAIL_POLL_INTERVAL_MS; settled e-mails past retention go every PURGE_INTERVAL_SECONDS.
 */
export const startAlertEmails = (ctx: AppContext): PollLoop => {
  const mailer = createAlertMailer(ctx);
  let prunedAt = Number.NEGATIVE_INFINITY;
  const loop = startPollLoop(ctx.config.ALERT_EMAIL_POLL_INTERVAL_MS, async () => {
    try {
      const now = realNow(ctx.clock).getTime();
      if (now - prunedAt >= ctx.config.PURGE_INTERVAL_SECONDS * 1000) {
        prunedAt = now;
        const pruned = await pruneSettledAlertEmails(ctx);
        if (pruned > 0) ctx.logger.info({ pruned }, 'alert e-mails past retention deleted');
      }
      const batch = await runAlertEmailBatch(ctx, mailer);
      if (batch.claimed === 0) return false;
      ctx.logger.info(batch, 'alert e-mails');
      return true;
    } catch (error) {
      ctx.logger.warn({ err: error }, 'alert e-mail pass failed; will retry');
      return false;
    }
  });
  return {
    stop: async () => {
      await loop.stop();
      mailer.close();
    },
  };
};

export type UnsubscribeLink =
  | { kind: 'malformed' | 'unknown' }
  | {
      kind: 'valid';
      locale: 'en' | 'es';
      /** Whether the customer had unsubscribed before this request. */
      alreadyUnsubscribed: boolean;
      bankName: string;
      bankUrl: string | null;
    };

/** What an unsubscribe link names: no customer for a malformed or unknown token. Reads only. */
export const findUnsubscribeLink = async (ctx: AppContext, token: unknown): Promise<UnsubscribeLink> => {
  const found = await lookUp(ctx, token);
  return found.kind === 'found' ? validLink(ctx, found.row) : found;
};

/** One-click unsubscribe (RFC 8058): the token is the customer's proof, no sign-in. Unsubscribing twice changes nothing. */
export const unsubscribe = async (ctx: AppContext, token: unknown): Promise<UnsubscribeLink> => {
  const found = await lookUp(ctx, token);
  if (found.kind !== 'found') return found;
  const { row } = found;
  if (!row.deleted && !row.unsubscribed) {
    await markAlertEmailsUnsubscribed(ctx.db, row.client_id, row.user_id, realNow(ctx.clock));
    ctx.logger.info({ userId: row.user_id, clientId: row.client_id }, 'customer unsubscribed from alert e-mails');
  }
  return validLink(ctx, row);
};

const lookUp = async (
  ctx: AppContext,
  token: unknown,
): Promise<{ kind: 'malformed' } | { kind: 'unknown' } | { kind: 'found'; row: UnsubscribeTokenRow }> => {
  if (typeof token !== 'string' || !UNSUBSCRIBE_TOKEN_SHAPE.test(token)) return { kind: 'malformed' };
  const row = await findUnsubscribeToken(ctx.db, ctx.tokens.candidates(token));
  return row ? { kind: 'found', row } : { kind: 'unknown' };
};

const validLink = async (ctx: AppContext, row: UnsubscribeTokenRow): Promise<UnsubscribeLink> => {
  const settings = await clientAlertEmailSettings(ctx.db, row.client_id);
  return {
    kind: 'valid',
    locale: row.locale,
    alreadyUnsubscribed: row.unsubscribed || row.deleted,
    bankName: settings?.displayName ?? settings?.clientName ?? '',
    bankUrl: settings?.linkUrl ?? null,
  };
};
