import type { BureauProvider } from '../../src/bureau/provider.ts';
import { SandboxBureau } from '../../src/bureau/sandbox/sandbox-bureau.ts';

/**
 * The sandbox bureau, counting the pulls that reach it (a real bureau bills each one), per user and with their pullIds,
 * and running a hook while the next credit pull is in flight (after it reached the bureau, before its answer comes
 * back): where a consumer's withdrawal can land. Score simulations pass through, counted apart.
 */
export const countingBureau = () => {
  const inner = new SandboxBureau();
  const pulls = { credit: 0, identity: 0 };
  const creditPulls: { userId: string; pullId: string | undefined }[] = [];
  /** Score simulations asked of the bureau: not pulls, never billed, so not in `total`. */
  let simulations = 0;
  let duringPull: ((userId: string) => Promise<void>) | undefined;
  const bureau: BureauProvider = {
    name: inner.name,
    pullCreditFile: async (subject, asOf, options) => {
      pulls.credit += 1;
      creditPulls.push({ userId: subject.userId, pullId: options?.pullId });
      const answer = await inner.pullCreditFile(subject, asOf);
      const hook = duringPull;
      duringPull = undefined;
      await hook?.(subject.userId);
      return answer;
    },
    pullIdentityFile: (...args) => {
      pulls.identity += 1;
      return inner.pullIdentityFile(...args);
    },
    simulateScore: (...args) => {
      simulations += 1;
      return inner.simulateScore(...args);
    },
    alwaysFailsVerification: (subject) => inner.alwaysFailsVerification?.(subject) ?? false,
  };
  return {
    bureau,
    pulls,
    total: () => pulls.credit + pulls.identity,
    simulations: () => simulations,
    creditPullsOf: (userId: string) => creditPulls.filter((p) => p.userId === userId).length,
    pullIdsOf: (userId: string) => creditPulls.filter((p) => p.userId === userId).map((p) => p.pullId),
    onNextCreditPull: (hook: (userId: string) => Promise<void>) => {
      duringPull = hook;
    },
  };
};
