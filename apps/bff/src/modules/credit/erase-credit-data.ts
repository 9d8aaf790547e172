import type { Queryable } from '../../db/db.ts';

/**
 * Erases what the credit features hold about purged users: scores, monitoring snapshots and alert keys, alerts (their text names lenders and
 * cities), verification sessions (drawn from the credit file), and the score and alert details in their
 * events. Offer clicks stay as attribution records: they hold ids and the partner's own metadata only.
 */
export const eraseCreditData = async (tx: Queryable, userIds: string[]): Promise<void> => {
  if (userIds.length === 0) return;
  for (const table of ['score_history', 'alerts', 'verification_sessions', 'credit_snapshots', 'monitoring_alert_keys']) {
    await tx.query(`delete from ${table} where user_id = any($1::text[])`, [userIds]);
  }
  await tx.query(
    `update outbox_events set data = data - 'alert' - 'score' - 'previousScore' - 'change' - 'direction'
     where data->>'userId' = any($1::text[]) and (data ? 'alert' or data ? 'score')`,
    [userIds],
  );
};
