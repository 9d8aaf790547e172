/**
 * Magic ssn values (last four digits), like a payment sandbox's test cards; docs/partner/credit-data.md lists them.
 * 1000–1099 are reserved for stories: files that evolve in a known way, for testing monitoring.
 */
export const SANDBOX_SSN = {
  frozen: '0000',
  failsVerification: '9999',
  /** Every alert type within any twelve monthly refreshes. */
  everyAlertStory: '1001',
  /** Nothing ever changes, so no alert is ever raised. */
  quietStory: '1002',
  /** A fraud alert is on the file from the start. */
  fraudFlagStory: '1003',
  /** A good score carrying the costly rates of weaker years: offers to refinance save money. */
  costlyCreditStory: '1004',
} as const;

export type SandboxStory = 'ordinary' | 'every_alert' | 'quiet' | 'fraud_flag' | 'costly_credit';

export const storyOf = (ssnLast4: string): SandboxStory => {
  if (ssnLast4 === SANDBOX_SSN.everyAlertStory) return 'every_alert';
  if (ssnLast4 === SANDBOX_SSN.quietStory) return 'quiet';
  if (ssnLast4 === SANDBOX_SSN.fraudFlagStory) return 'fraud_flag';
  if (ssnLast4 === SANDBOX_SSN.costlyCreditStory) return 'costly_credit';
  return 'ordinary';
};
