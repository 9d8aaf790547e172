import { createHash } from 'node:crypto';

/**
 * The id an account has on a user's credit report, alerts and offers: a digest of the user and the bureau's own id
 * for the tradeline, so it is the same across pulls, differs between users for one bureau id, and never shows the
 * bureau's id itself.
 */
export const accountIdOf = (userId: string, tradelineId: string): string =>
  `acc_${createHash('sha256').update(`${userId}:${tradelineId}`).digest('hex').slice(0, 20)}`;
