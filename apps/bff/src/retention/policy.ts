import { MAX_HISTORY_MONTHS } from '@credit/contract';
import type { Config } from '../config.ts';

const DAY_MS = 86_400_000;

/** `months` calendar months before `now` (UTC), as PostgreSQL's `- interval 'n months'` counts them. */
const monthsBefore = (now: Date, months: number) => {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
};

/** Rows older than these go. */
export interface RetentionCutoffs {
  /** Settled webhook deliveries and attempts logged before this. */
  webhookLog: Date;
  /** Outbox events created before this whose deliveries are all settled. */
  outbox: Date;
  /** Alerts and alert keys created before this. */
  alerts: Date;
  /** Score history points dated before this: the history read serves at most MAX_HISTORY_MONTHS. */
  scoreHistory: Date;
  /** Audit trail entries that happened before this (modules/audit prunes them under a signed checkpoint). */
  audit: Date;
}

export const retentionCutoffs = (config: Config, now: Date): RetentionCutoffs => ({
  webhookLog: new Date(now.getTime() - config.WEBHOOK_LOG_RETENTION_DAYS * DAY_MS),
  outbox: new Date(now.getTime() - config.OUTBOX_RETENTION_DAYS * DAY_MS),
  alerts: monthsBefore(now, config.ALERT_RETENTION_MONTHS),
  scoreHistory: monthsBefore(now, MAX_HISTORY_MONTHS),
  audit: monthsBefore(now, config.AUDIT_RETENTION_YEARS * 12),
});

/** The same ages in days (a month as 365.25 / 12 days): what capacity planning multiplies by. */
export const retentionAgesDays = (config: Config) => ({
  webhookLog: config.WEBHOOK_LOG_RETENTION_DAYS,
  outbox: config.OUTBOX_RETENTION_DAYS,
  alerts: (config.ALERT_RETENTION_MONTHS * 365.25) / 12,
  scoreHistory: (MAX_HISTORY_MONTHS * 365.25) / 12,
  audit: config.AUDIT_RETENTION_YEARS * 365.25,
});
