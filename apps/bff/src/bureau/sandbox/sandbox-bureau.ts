import type {
  BureauCallOptions,
  BureauProvider,
  CreditFile,
  CreditFileResult,
  CreditSubject,
  PullOptions,
  SimulatedScore,
  SimulationAction,
  TriggerType,
} from '../provider.ts';
import { nextSandboxFileChange } from './file-changes.ts';
import { generateCreditFile } from './generate-file.ts';
import { SANDBOX_SSN } from './magic-ssn.ts';
import { sandboxSimulatedScore } from './simulate-score.ts';
import type { SandboxTriggerLog } from './trigger-log.ts';

export { SANDBOX_SSN } from './magic-ssn.ts';

/**
 * Deterministic synthetic bureau for the sandbox environment. Never used in production. In process it has no cap, so
 * the call options (whose call it is) are accepted and unused.
 */
export class SandboxBureau implements BureauProvider {
  readonly name = 'sandbox';
  /** Only behind `pnpm bureau`: the platform in process schedules the sandbox's changes itself (nextFileChange). */
  readonly triggers?: SandboxTriggerLog;

  constructor(options: { triggerLog?: SandboxTriggerLog } = {}) {
    this.triggers = options.triggerLog;
  }

  async pullCreditFile(subject: CreditSubject, asOf: Date, options?: PullOptions): Promise<CreditFileResult> {
    if (subject.ssnLast4 === SANDBOX_SSN.frozen) return { status: 'frozen' };
    if (options?.monitor && subject.userId) this.triggers?.monitor(subject, asOf);
    return { status: 'ok', file: generateCreditFile(subject, asOf) };
  }

  async pullIdentityFile(subject: CreditSubject, asOf: Date, _options?: BureauCallOptions): Promise<CreditFile> {
    return generateCreditFile(subject, asOf);
  }

  /** On the file a pull as of `asOf` returns; a frozen file too, as nothing reaches a lender. */
  async simulateScore(
    subject: CreditSubject,
    asOf: Date,
    actions: SimulationAction[],
    _options?: BureauCallOptions,
  ): Promise<SimulatedScore> {
    return sandboxSimulatedScore(generateCreditFile(subject, asOf), asOf, actions);
  }

  async nextFileChange(subject: CreditSubject, after: Date): Promise<{ on: string; types: TriggerType[] } | null> {
    return nextSandboxFileChange(subject, after);
  }

  alwaysFailsVerification(subject: CreditSubject): boolean {
    return subject.ssnLast4 === SANDBOX_SSN.failsVerification;
  }
}
