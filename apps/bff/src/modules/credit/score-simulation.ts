import {
  ratingForScore,
  SCORE_MAX,
  SCORE_MIN,
  SIMULATION_DISCLAIMER,
  type TCreditFactor,
  type TSimulation,
  type TSimulationAction,
} from '@credit/contract';
import { isoDate } from '../../bureau/dates.ts';
import { creditFactors } from '../../bureau/factors.ts';
import type { CreditFile, SimulatedScore, SimulationAction } from '../../bureau/provider.ts';
import { type SimulatedFile, SimulationActionError, simulateFile } from '../../bureau/simulation.ts';
import { type ErrorDetail, validationError } from '../../core/api-error.ts';
import { accountIdOf } from './account-id.ts';
import type { FileOnRecord } from './file-on-record.ts';

const NOT_ON_REPORT = "is not an account on this user's credit report";

/**
 * The bureau's form of a simulation's actions: each `accountId` of the report turned back into the tradeline it names.
 * An id that names nothing (or a collection, which no action can change) is a 400 naming each such action at once.
 */
export const bureauActionsOf = (userId: string, file: CreditFile, actions: TSimulationAction[]): SimulationAction[] => {
  const tradelines = new Map(file.tradelines.map((t) => [accountIdOf(userId, t.id), t.id]));
  const problems: ErrorDetail[] = [];
  const tradelineOf = (accountId: string, index: number): string => {
    const id = tradelines.get(accountId);
    if (id === undefined) problems.push({ field: `actions.${index}.accountId`, message: NOT_ON_REPORT });
    return id ?? '';
  };
  const toBureau = (action: TSimulationAction, index: number): SimulationAction => {
    switch (action.type) {
      case 'pay_down_balance':
        return { type: action.type, tradelineId: tradelineOf(action.accountId, index), amount: action.amount };
      case 'close_account':
      case 'miss_payment':
        return { type: action.type, tradelineId: tradelineOf(action.accountId, index) };
      case 'raise_credit_limit':
        return { type: action.type, tradelineId: tradelineOf(action.accountId, index), newLimit: action.newLimit };
      case 'pay_on_time':
        return { type: action.type, months: action.months };
      case 'open_credit_card':
        return { type: action.type, creditLimit: action.creditLimit };
      case 'take_loan':
        return { type: action.type, loanType: action.loanType, amount: action.amount };
      case 'hard_inquiry':
        return { type: action.type };
    }
  };
  const mapped = actions.map(toBureau);
  if (problems.length) throw validationError(problems);
  return mapped;
};

/** The API's field for what an action error names: the report's `accountId` stands for the bureau's tradeline. */
const FIELDS: Record<SimulationActionError['field'], string> = {
  tradelineId: 'accountId',
  amount: 'amount',
  newLimit: 'newLimit',
};

/** Runs `work`, answering an action that does not fit its account as a 400 naming that action's field. */
export const asValidationError = async <T>(work: () => T | Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SimulationActionError)) throw error;
    throw validationError([{ field: `actions.${error.index}.${FIELDS[error.field]}`, message: error.message }]);
  }
};

/** The file on record with the actions applied: what the factors after are computed from. */
export const simulatedFileOf = (record: FileOnRecord, actions: SimulationAction[]): Promise<SimulatedFile> =>
  asValidationError(() => simulateFile(record.file, record.asOf, actions));

const clampScore = (score: number) => Math.max(SCORE_MIN, Math.min(SCORE_MAX, Math.round(score)));

/**
 * The simulation answer. The bureau's estimate is a move from its own score for the file; applied to the score on
 * record, so the answer starts from the figure the user sees (a sandbox score refresh can set it apart from the file's).
 */
export const simulationOf = (
  record: FileOnRecord,
  simulated: SimulatedFile,
  currentScore: number,
  estimate: SimulatedScore,
  factorsBefore: readonly TCreditFactor[],
): TSimulation => {
  const simulatedScore = clampScore(currentScore + (estimate.simulatedScore - estimate.score));
  const after = new Map(creditFactors(simulated.file, simulated.asOf).map((f) => [f.code, f]));
  return {
    currentScore,
    simulatedScore,
    change: simulatedScore - currentScore,
    currentRating: ratingForScore(currentScore),
    simulatedRating: ratingForScore(simulatedScore),
    scoreRange: { min: SCORE_MIN, max: SCORE_MAX },
    bureau: record.file.bureau,
    reportDate: isoDate(record.asOf),
    factors: factorsBefore.map((before) => {
      const now = after.get(before.code) ?? before;
      return {
        code: before.code,
        name: before.name,
        before: { score: before.score, impact: before.impact },
        after: { score: now.score, impact: now.impact },
      };
    }),
    disclaimer: SIMULATION_DISCLAIMER,
  };
};
