import { SCORE_MAX, SCORE_MIN, type TFactorCode } from '@credit/contract';
import { creditFactors } from '../factors.ts';
import type { CreditFile, SimulatedScore, SimulationAction } from '../provider.ts';
import { simulateFile } from '../simulation.ts';

/**
 * How much each factor's 0–100 standing weighs in the sandbox's simulated score, after VantageScore 3.0's published
 * shares (payment history 40 %, utilization and balances 31 %, age 13 %, mix and new credit the rest).
 */
const WEIGHTS: Record<TFactorCode, number> = {
  PAYMENT_HISTORY: 0.4,
  CREDIT_UTILIZATION: 0.31,
  CREDIT_AGE: 0.13,
  CREDIT_MIX: 0.08,
  NEW_CREDIT: 0.08,
};
/** Points per point of weighted standing: the whole 0–100 scale spans the score's range. */
const POINTS_PER_STANDING = (SCORE_MAX - SCORE_MIN) / 100;
/**
 * A new late payment costs more than its share of the payment record says, and more the better the file
 * (a 30-day late takes 60–100 points from a 780 file, far less from a 580 one).
 */
const LATE_PAYMENT_COST = (score: number) => 20 + 60 * ((score - SCORE_MIN) / (SCORE_MAX - SCORE_MIN));

const latePayments = (file: CreditFile) => file.tradelines.reduce((sum, t) => sum + t.latePayments, 0);

/**
 * The sandbox's estimate: the file's score moved by each factor's weighted change and each new late payment. Every
 * term follows one factor, so helping a factor never lowers the score and hurting one never raises it.
 */
export const sandboxSimulatedScore = (file: CreditFile, asOf: Date, actions: SimulationAction[]): SimulatedScore => {
  const score = file.monthlyScores.at(-1)?.score ?? SCORE_MIN;
  const simulated = simulateFile(file, asOf, actions);
  const before = new Map(creditFactors(file, asOf).map((f) => [f.code, f.score]));
  const after = creditFactors(simulated.file, simulated.asOf);
  const standing = after.reduce((sum, f) => sum + WEIGHTS[f.code] * (f.score - (before.get(f.code) ?? f.score)), 0);
  const newLates = latePayments(simulated.file) - latePayments(file);
  const change = standing * POINTS_PER_STANDING - newLates * LATE_PAYMENT_COST(score);
  return { score, simulatedScore: Math.max(SCORE_MIN, Math.min(SCORE_MAX, Math.round(score + change))) };
};
