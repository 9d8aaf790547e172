import type { TAlertEmailSuppressedReason } from '@credit/contract';
import type { Queryable } from '../../db/db.ts';

export type AlertEmailMode = 'each' | 'daily_digest';

export interface QueuedAlert {
  emailId: string;
  clientId: string;
  userId: string;
  alertId: string;
  /** The alert's time: the customer's (their test clock's in the sandbox). */
  alertAt: Date;
  /** Its UTC day, which a digest covers, and the instant that day ends, when the digest may go. */
  digestDay: string;
  digestDueAt: Date;
  /** Real time, for the first attempt of an e-mail that may go at once. */
  realNow: Date;
}

/**
 * Queues the alert's e-mail in the caller's transaction, when the client has alert e-mails on and its live user has an
 * address and has not unsubscribed; one plain statement, so it also joins a StatementBatch. `each` inserts a row of its
 * own; `daily_digest` adds the alert to the customer's row of that day while it is pending. A digest row of a user
 * without a test clock is first tried when its day ends; one on a clock waits for the clock (the claim checks).
 */
export const queueAlertEmail = async (tx: Queryable, q: QueuedAlert): Promise<void> => {
  await tx.query(
    `insert into alert_emails (id, client_id, user_id, mode, alert_ids, digest_day, state, due_at, next_attempt_at, created_at)
     select $1, c.id, u.id, c.alert_email_mode, array[$4::text],
       case when c.alert_email_mode = 'daily_digest' then $6::date end,
       'pending',
       case when c.alert_email_mode = 'daily_digest' then $7::timestamptz else $5::timestamptz end,
       case when c.alert_email_mode = 'daily_digest' and u.clock_id is null then $7::timestamptz else $8::timestamptz end,
       $5::timestamptz
     from clients c join users u on u.client_id = c.id
     where c.id = $2 and u.id = $3 and c.alert_emails_enabled and u.deleted_at is null and u.email is not null
       and u.alert_emails_unsubscribed_at is null
     on conflict (client_id, user_id, digest_day) where mode = 'daily_digest'
     do update set alert_ids = alert_emails.alert_ids || excluded.alert_ids
       where alert_emails.state = 'pending' and not (excluded.alert_ids[1] = any(alert_emails.alert_ids))`,
    [q.emailId, q.clientId, q.userId, q.alertId, q.alertAt, q.digestDay, q.digestDueAt, q.realNow],
  );
};

export interface ClaimedAlertEmail {
  id: string;
  client_id: string;
  user_id: string;
}

/**
 * Leases due e-mails to this worker; SKIP LOCKED lets workers share the queue, and the lease keeps an e-mail from a
 * second worker while the first sends it. Due means both: its next attempt has come (real time) and its own time has
 * (the customer's: a sandbox test clock's frozen time for a user on one).
 */
export const claimDueAlertEmails = async (
  db: Queryable,
  claim: { now: Date; leaseUntil: Date; leaseToken: string; limit: number },
): Promise<ClaimedAlertEmail[]> => {
  const { rows } = await db.query<ClaimedAlertEmail>(
    `update alert_emails set lease_token = $3, lease_until = $2
     where id in (
       select e.id from alert_emails e
         join users u on u.id = e.user_id and u.client_id = e.client_id
         left join sandbox_clocks k on k.id = u.clock_id
       where e.state = 'pending' and e.next_attempt_at <= $1 and (e.lease_until is null or e.lease_until <= $1)
         and e.due_at <= coalesce(k.frozen_time, $1)
       order by e.next_attempt_at
       limit $4
       for update of e skip locked)
     returning id, client_id, user_id`,
    [claim.now, claim.leaseUntil, claim.leaseToken, claim.limit],
  );
  return rows;
};

/** The recipient as the send must see it, read under a share lock: a deletion, withdrawal or unsubscribe waits for it. */
export interface RecipientRow {
  id: string;
  external_user_id: string | null;
  email: string | null;
  first_name: string | null;
  locale: 'en' | 'es';
  deleted: boolean;
  unsubscribed: boolean;
  /** The frozen time of the user's sandbox test clock (their "now"), if they are on one. */
  clock_time: Date | null;
}

export const lockRecipient = async (tx: Queryable, clientId: string, userId: string): Promise<RecipientRow | undefined> => {
  const { rows } = await tx.query<RecipientRow>(
    `select u.id, u.external_user_id, u.email, u.first_name, u.locale, u.deleted_at is not null as deleted,
       u.alert_emails_unsubscribed_at is not null as unsubscribed,
       (select k.frozen_time from sandbox_clocks k where k.id = u.clock_id) as clock_time
     from users u where u.id = $1 and u.client_id = $2
     for share of u`,
    [userId, clientId],
  );
  return rows[0];
};

export interface HeldAlertEmail {
  id: string;
  mode: AlertEmailMode;
  alert_ids: string[];
  /** `YYYY-MM-DD`, or null for an e-mail of one alert. */
  digest_day: string | null;
  attempts: number;
}

/** The e-mail, locked, if this worker's lease on it still holds. */
export const holdLeasedAlertEmail = async (
  tx: Queryable,
  lease: { id: string; clientId: string; leaseToken: string; now: Date },
): Promise<HeldAlertEmail | undefined> => {
  const { rows } = await tx.query<HeldAlertEmail>(
    `select id, mode, alert_ids, digest_day::text as digest_day, attempts from alert_emails
     where id = $1 and client_id = $2 and lease_token = $3 and lease_until > $4 and state = 'pending'
     for update`,
    [lease.id, lease.clientId, lease.leaseToken, lease.now],
  );
  return rows[0];
};

export const markSuppressed = async (
  tx: Queryable,
  s: { id: string; clientId: string; reason: TAlertEmailSuppressedReason; at: Date },
): Promise<void> => {
  await tx.query(
    `update alert_emails set state = 'suppressed', suppressed_reason = $3, settled_at = $4, lease_token = null,
       lease_until = null
     where id = $1 and client_id = $2`,
    [s.id, s.clientId, s.reason, s.at],
  );
};

/** Counts the attempt before it is made (a worker that dies mid-send still counts it) and extends the lease over it. */
export const startAttempt = async (
  tx: Queryable,
  a: { id: string; clientId: string; at: Date; leaseUntil: Date },
): Promise<void> => {
  await tx.query(
    'update alert_emails set attempts = attempts + 1, last_attempt_at = $3, lease_until = $4 where id = $1 and client_id = $2',
    [a.id, a.clientId, a.at, a.leaseUntil],
  );
};

export const insertUnsubscribeToken = async (
  tx: Queryable,
  t: { tokenHash: string; clientId: string; userId: string; emailId: string; createdAt: Date },
): Promise<void> => {
  await tx.query(
    `insert into alert_email_unsubscribe_tokens (token_hash, client_id, user_id, email_id, created_at)
     values ($1, $2, $3, $4, $5)`,
    [t.tokenHash, t.clientId, t.userId, t.emailId, t.createdAt],
  );
};

interface Settle {
  id: string;
  clientId: string;
  leaseToken: string;
  at: Date;
}

/** Settles the e-mail this worker still holds; answers its attempts, or undefined when the lease was lost. */
export const markSent = async (tx: Queryable, s: Settle): Promise<number | undefined> => {
  const { rows } = await tx.query<{ attempts: number }>(
    `update alert_emails set state = 'sent', sent_at = $4, settled_at = $4, last_error = null, lease_token = null,
       lease_until = null
     where id = $1 and client_id = $2 and lease_token = $3 and state = 'pending'
     returning attempts`,
    [s.id, s.clientId, s.leaseToken, s.at],
  );
  return rows[0]?.attempts;
};

export const scheduleRetry = async (tx: Queryable, s: Settle & { error: string; nextAttemptAt: Date }): Promise<void> => {
  await tx.query(
    `update alert_emails set last_error = $4, next_attempt_at = $5, lease_token = null, lease_until = null
     where id = $1 and client_id = $2 and lease_token = $3 and state = 'pending'`,
    [s.id, s.clientId, s.leaseToken, s.error, s.nextAttemptAt],
  );
};

export const markFailed = async (tx: Queryable, s: Settle & { error: string }): Promise<number | undefined> => {
  const { rows } = await tx.query<{ attempts: number }>(
    `update alert_emails set state = 'failed', last_error = $4, settled_at = $5, lease_token = null, lease_until = null
     where id = $1 and client_id = $2 and lease_token = $3 and state = 'pending'
     returning attempts`,
    [s.id, s.clientId, s.leaseToken, s.error, s.at],
  );
  return rows[0]?.attempts;
};

export interface UnsubscribeTokenRow {
  client_id: string;
  user_id: string;
  locale: 'en' | 'es';
  deleted: boolean;
  unsubscribed: boolean;
}

/** The user an unsubscribe token belongs to, by any digest it may be stored under (the signing key rotates). */
export const findUnsubscribeToken = async (db: Queryable, tokenHashes: string[]): Promise<UnsubscribeTokenRow | undefined> => {
  const { rows } = await db.query<UnsubscribeTokenRow>(
    `select t.client_id, t.user_id, u.locale, u.deleted_at is not null as deleted,
       u.alert_emails_unsubscribed_at is not null as unsubscribed
     from alert_email_unsubscribe_tokens t join users u on u.id = t.user_id and u.client_id = t.client_id
     where t.token_hash = any($1::text[])
     limit 1`,
    [tokenHashes],
  );
  return rows[0];
};

/** Settled e-mails (and their unsubscribe tokens) older than `before`, a bounded chunk at a time; workers split it. */
export const deleteSettledBefore = async (db: Queryable, before: Date, limit: number): Promise<number> => {
  const { rowCount } = await db.query(
    `delete from alert_emails where id in (
       select id from alert_emails where state <> 'pending' and settled_at < $1 order by settled_at limit $2
       for update skip locked)`,
    [before, limit],
  );
  return rowCount;
};
