/**
 * How many alerts a regular monthly refresh raises per user, from the sandbox's own evolving files: a bench cycle
 * pulls every file as of today, so a second cycle in the same calendar month finds no difference. This replays
 * `sample` ordinary identities over `months` consecutive month-ends through the same pure functions the job uses
 * (generateCreditFile → snapshotOf → detectAlerts, keys deduplicated per user as the job's key table does) and counts.
 */
import { generateCreditFile } from '../../src/bureau/sandbox/generate-file.ts';
import { SIGNIFICANT_CHANGE as SCORE_CHANGE_THRESHOLD } from '../../src/modules/credit/score-change.ts';
import { detectAlerts } from '../../src/modules/monitoring/file-diff.ts';
import { type FileSnapshot, snapshotOf } from '../../src/modules/monitoring/file-snapshot.ts';

export interface AlertRate {
  /** Alerts from file differences per user per regular refresh (each also writes one alert key and one alert.created). */
  diffAlertsPerRefresh: number;
  /** Share of refreshes whose score moved more than the threshold (score.changed + score_change alert + alert.created). */
  scoreChangeShare: number;
}

export const sampleAlertRate = (sample: number, months: number, now: Date): AlertRate => {
  let diffAlerts = 0;
  let scoreChanges = 0;
  for (let i = 0; i < sample; i++) {
    const subject = {
      userId: `usr_sample_${i}`,
      firstName: 'Bench',
      lastName: `Sample${i}`,
      ssnLast4: String(2000 + ((i * 7919) % 7000)).padStart(4, '0'),
      dateOfBirth: `19${50 + (i % 45)}-0${1 + (i % 9)}-1${i % 9}`,
      address: { street: `${100 + (i % 900)} Maple St`, city: 'Columbus', state: 'OH', zipCode: '43210' },
    };
    const seen = new Set<string>();
    let previous: FileSnapshot | null = null;
    let previousScore: number | undefined;
    for (let m = months; m >= 0; m--) {
      const asOf = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 15));
      const file = generateCreditFile(subject, asOf);
      const next = snapshotOf(file, asOf);
      const score = file.monthlyScores.at(-1)?.score;
      const alerts = detectAlerts(previous, next, asOf).filter((alert) => !seen.has(alert.key));
      for (const alert of alerts) seen.add(alert.key);
      // The first pull is the period-0 cycle the bench measures for real; only the regular ones are counted here.
      if (previous) {
        diffAlerts += alerts.length;
        if (score !== undefined && previousScore !== undefined && Math.abs(score - previousScore) > SCORE_CHANGE_THRESHOLD) {
          scoreChanges += 1;
        }
      }
      previous = next;
      previousScore = score;
    }
  }
  const refreshes = sample * months;
  return { diffAlertsPerRefresh: diffAlerts / refreshes, scoreChangeShare: scoreChanges / refreshes };
};
