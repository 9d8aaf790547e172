import type { CreditClient } from '@credit/sdk';

/** The customer's score in one line, e.g. "718 (good), up 6 points over 3 months". */
export async function describeScore(credit: CreditClient, userId: string): Promise<string> {
  const score = await credit.call('getCreditScore', { params: { userId } });
  const { direction, change } = score.trend;
  const movement = direction === 'stable' ? 'stable' : `${direction} ${Math.abs(change)} points`;
  return `${score.score} (${score.rating}), ${movement} over 3 months`;
}
