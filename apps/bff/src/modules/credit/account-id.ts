import { createHash } from 'node:crypto';

/**
 * An account's id on the user's report, alerts and offers: stable across pulls, distinct per user. It does not show
 * the bureau's id, but unkeyed it does not hide a guessable one either (docs/decisions.md).
 */
export const accountIdOf = (userId: string, tradelineId: string): string =>
  `acc_${createHash('sha256').update(`${userId}:${tradelineId}`).digest('hex').slice(0, 20)}`;
