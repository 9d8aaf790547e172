import { MANUAL_REFRESH_INTERVAL_HOURS, type TMonitoring, type TUser } from '@credit/contract';
import { type ConsentColumns, consentPause } from './consent-gate.ts';

/** The monitoring columns of a user row (the job in modules/monitoring writes them). */
export interface MonitoringColumns extends ConsentColumns {
  monitoring_due_at: Date | null;
  monitoring_last_at: Date | null;
  monitoring_paused_reason: 'credit_frozen' | null;
  manual_refresh_at: Date | null;
  /** While a refresh now's pull runs: when it is taken to have died (its process stopped) and the slot is free. */
  manual_refresh_pending_until?: Date | null;
  deleted_at?: Date | null;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** When refresh-now is next allowed, or null when it is allowed now (also once the pull that took the slot died). */
export const refreshAvailableAt = (lastManualRefresh: Date | null, now: Date, pendingUntil?: Date | null): Date | null => {
  if (!lastManualRefresh) return null;
  if (pendingUntil && new Date(pendingUntil).getTime() <= now.getTime()) return null;
  const at = new Date(new Date(lastManualRefresh).getTime() + MANUAL_REFRESH_INTERVAL_HOURS * 3_600_000);
  return at.getTime() > now.getTime() ? at : null;
};

/** `monitoring` as the user resource shows it: derived from the user's status and the job's columns. */
export const monitoringOf = (row: MonitoringColumns, status: TUser['status'], now: Date): TMonitoring => {
  const lastRefreshedAt = iso(row.monitoring_last_at);
  const available = iso(refreshAvailableAt(row.manual_refresh_at, now, row.manual_refresh_pending_until));
  if (row.deleted_at) {
    return { status: 'stopped', pausedReason: null, lastRefreshedAt, nextRefreshAt: null, refreshAvailableAt: null };
  }
  // Without consent nothing is pulled, verification included: that is the first thing to resolve.
  const consent = consentPause(row, now);
  if (consent) {
    return { status: 'paused', pausedReason: consent, lastRefreshedAt, nextRefreshAt: null, refreshAvailableAt: null };
  }
  if (status !== 'active') {
    const pausedReason = status === 'locked' ? 'verification_locked' : 'not_verified';
    return { status: 'paused', pausedReason, lastRefreshedAt, nextRefreshAt: null, refreshAvailableAt: null };
  }
  // A frozen file is still checked every period (that is how monitoring sees the freeze lifted), so the date shows.
  const nextRefreshAt = iso(row.monitoring_due_at);
  if (row.monitoring_paused_reason === 'credit_frozen') {
    return { status: 'paused', pausedReason: 'credit_frozen', lastRefreshedAt, nextRefreshAt, refreshAvailableAt: available };
  }
  return { status: 'active', pausedReason: null, lastRefreshedAt, nextRefreshAt, refreshAvailableAt: available };
};
