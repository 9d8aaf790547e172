import { SCORE_MAX, SCORE_MIN } from '@credit/contract';
import { SeededRandom } from '../../lib/seeded-random.ts';

/**
 * The score a sandbox refresh moves to when the caller names none: a deterministic step of
 * 3–25 points (sometimes more than 10, so `score.changed` fires), never leaving 300–850.
 */
export const nextSandboxScore = (userId: string, previous: number, refreshNumber: number): number => {
  const rng = new SeededRandom(`sandbox-refresh:v1:${userId}:${refreshNumber}`);
  const step = rng.int(3, 25) * (rng.next() < 0.55 ? 1 : -1);
  const next = previous + step;
  return next > SCORE_MAX || next < SCORE_MIN ? previous - step : next;
};
