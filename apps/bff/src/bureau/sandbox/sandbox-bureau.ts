import type { BureauProvider, CreditFile, CreditFileResult, CreditSubject } from '../provider.ts';
import { generateCreditFile } from './generate-file.ts';

/** Magic ssn values, like a payment sandbox's test cards. The README lists them. */
export const SANDBOX_SSN = { frozen: '0000', failsVerification: '9999' } as const;

/** Deterministic synthetic bureau for the sandbox environment. Never used in production. */
export class SandboxBureau implements BureauProvider {
  readonly name = 'sandbox';

  async pullCreditFile(subject: CreditSubject, asOf: Date): Promise<CreditFileResult> {
    if (subject.ssnLast4 === SANDBOX_SSN.frozen) return { status: 'frozen' };
    return { status: 'ok', file: generateCreditFile(subject, asOf) };
  }

  async pullIdentityFile(subject: CreditSubject, asOf: Date): Promise<CreditFile> {
    return generateCreditFile(subject, asOf);
  }

  alwaysFailsVerification(subject: CreditSubject): boolean {
    return subject.ssnLast4 === SANDBOX_SSN.failsVerification;
  }
}
