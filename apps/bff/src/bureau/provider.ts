import type { TCreditBureau } from '@credit/contract';

/** Who the bureau is asked about: the identity fields given at enrolment, decrypted for the call only. */
export interface CreditSubject {
  userId: string;
  firstName: string;
  lastName: string;
  ssnLast4: string;
  dateOfBirth: string;
  address: { street: string; city: string; state: string; zipCode: string };
}

export type TradelineKind = 'credit_card' | 'auto_loan' | 'student_loan' | 'mortgage' | 'personal_loan';

/** One account on the credit file. Amounts in USD. */
export interface Tradeline {
  id: string;
  lender: string;
  kind: TradelineKind;
  openedOn: string;
  closedOn: string | null;
  /** Credit limit (revolving) or original amount (installment). */
  limitOrAmount: number;
  balance: number;
  latePayments: number;
}

export interface Inquiry {
  source: string;
  date: string;
}

export interface PastAddress {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  from: string;
  to: string;
}

/**
 * An address a lender or other furnisher reported for the person, dated the day the bureau first received it.
 * A new one appearing is what an `address_change` alert is about (a move, or someone using the person's name).
 */
export interface ReportedAddress {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  reportedOn: string;
}

/** The consumer statements a bureau keeps on a file (FCRA §605A): a fraud alert or an active-duty military alert. */
export type ConsumerFlagType = 'fraud_alert' | 'active_duty_alert';

export interface ConsumerFlag {
  type: ConsumerFlagType;
  placedOn: string;
}

export interface MonthlyScore {
  date: string;
  score: number;
}

/** What a bureau returns for one person, as of one day. */
export interface CreditFile {
  bureau: TCreditBureau;
  /** Oldest first; the last one is the current score. */
  monthlyScores: MonthlyScore[];
  tradelines: Tradeline[];
  inquiries: Inquiry[];
  /** Where the person lived before (identity questions draw on them). */
  pastAddresses: PastAddress[];
  /** Every address reported for the person, oldest first (past ones from when they moved in, then new reports). */
  reportedAddresses: ReportedAddress[];
  /** Fraud and active-duty alerts on the file now, oldest first (an expired one is gone). */
  flags: ConsumerFlag[];
  /** On-time payment share over the file's history, 0–100. */
  onTimePaymentPercent: number;
}

export type CreditFileResult = { status: 'ok'; file: CreditFile } | { status: 'frozen' };

/** How a billed pull is identified to the bureau. */
export interface PullOptions {
  /**
   * The pull's idempotency key (`usr_…:verification:<session>`, `usr_…:period:3`, `usr_…:refresh:<time>`): a request
   * repeated with the same key is the same pull, billed once. Monitoring repeats a period's request only when a worker
   * died between the bureau's answer and the commit.
   */
  pullId?: string;
}

/**
 * What a TransUnion, Equifax or Experian adapter implements. The sandbox implementation derives
 * a deterministic synthetic file from the subject; production has none until a real adapter exists.
 */
export interface BureauProvider {
  readonly name: string;
  /** The file a lender sees: refused while the consumer has frozen it. */
  pullCreditFile(subject: CreditSubject, asOf: Date, options?: PullOptions): Promise<CreditFileResult>;
  /**
   * The same file for identity verification (knowledge-based questions). A freeze blocks lenders,
   * not the consumer proving who they are, so this is never refused for a freeze.
   */
  pullIdentityFile(subject: CreditSubject, asOf: Date): Promise<CreditFile>;
  /** Sandbox only: whether identity verification must fail for this subject (ssn `9999`). */
  alwaysFailsVerification?(subject: CreditSubject): boolean;
  /** Releases what the adapter holds (the HTTP bureau's keep-alive connections); called once, on shutdown. */
  close?(): Promise<void>;
}
