import type { BureauProvider } from '../../src/bureau/provider.ts';
import { SandboxBureau } from '../../src/bureau/sandbox/sandbox-bureau.ts';

/** The sandbox bureau, counting the pulls that reach it (a real bureau bills each one). */
export const countingBureau = () => {
  const inner = new SandboxBureau();
  const pulls = { credit: 0, identity: 0 };
  const bureau: BureauProvider = {
    name: inner.name,
    pullCreditFile: (subject, asOf) => {
      pulls.credit += 1;
      return inner.pullCreditFile(subject, asOf);
    },
    pullIdentityFile: (...args) => {
      pulls.identity += 1;
      return inner.pullIdentityFile(...args);
    },
    alwaysFailsVerification: (subject) => inner.alwaysFailsVerification?.(subject) ?? false,
  };
  return { bureau, pulls, total: () => pulls.credit + pulls.identity };
};
