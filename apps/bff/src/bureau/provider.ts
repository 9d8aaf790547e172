import type { TCreditBureau } from '@credit/contract';
import type { OnBehalfOf } from '../core/request-scope.ts';

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

/** A month of an account's payment record (Metro 2 grading): on time, days late, charged off, or nothing reported. */
export type PaymentStatus = 'ok' | '30' | '60' | '90' | '120' | 'charge_off' | 'no_data';

/** Where an account stands: `paid_off` is an installment loan paid in full, `charged_off` written off by the lender. */
export type TradelineStatus = 'open' | 'closed' | 'paid_off' | 'charged_off';

/** One account on the credit file. Amounts in USD. */
export interface Tradeline {
  id: string;
  lender: string;
  kind: TradelineKind;
  status: TradelineStatus;
  openedOn: string;
  closedOn: string | null;
  /** Credit limit (revolving) or original amount (installment). */
  limitOrAmount: number;
  balance: number;
  /** Late payments over the account's life. */
  latePayments: number;
  /** Scheduled payment (cards: the minimum due); null when none is due or reported. */
  monthlyPayment: number | null;
  /** APR in percent, where the lender reports one. */
  apr: number | null;
  /** Installment loans: the term in months. */
  termMonths: number | null;
  /** The file's month first, then each month before it: at most 24 (months before opening are `no_data`). */
  paymentHistory: PaymentStatus[];
}

/** A debt placed with a collection agency: a derogatory mark, kept apart from the tradelines the factors count. */
export interface Collection {
  id: string;
  agency: string;
  originalCreditor: string;
  /** The day the agency reported it. */
  reportedOn: string;
  originalAmount: number;
  balance: number;
  /** The day it was paid, or null while unpaid. */
  paidOn: string | null;
}

export type PublicRecordType = 'bankruptcy_chapter_7' | 'bankruptcy_chapter_13';

export interface PublicRecord {
  type: PublicRecordType;
  status: 'filed' | 'discharged' | 'dismissed';
  filedOn: string;
  resolvedOn: string | null;
  court: string;
}

export interface ReportedEmployer {
  name: string;
  reportedOn: string;
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
  /** Debts in collection, oldest first. */
  collections: Collection[];
  publicRecords: PublicRecord[];
  /** Checks that cannot affect the score (pre-approvals, the person's own checks), last 24 months, oldest first. */
  softInquiries: Inquiry[];
  /** The names the bureau holds for the person ("Ana Ruiz", "A Ruiz"). */
  names: string[];
  yearOfBirth: number | null;
  /** Employers reported for the person, oldest first. */
  employers: ReportedEmployer[];
}

/** What a score simulation changes on the file; accounts are named by their tradeline `id`. */
export type SimulationAction =
  | { type: 'pay_down_balance'; tradelineId: string; amount: number }
  | { type: 'pay_on_time'; months: number }
  | { type: 'open_credit_card'; creditLimit: number }
  | { type: 'take_loan'; loanType: Exclude<TradelineKind, 'credit_card'>; amount: number }
  | { type: 'close_account'; tradelineId: string }
  | { type: 'miss_payment'; tradelineId: string }
  | { type: 'hard_inquiry' }
  | { type: 'raise_credit_limit'; tradelineId: string; newLimit: number };

/** The bureau's score for the file as of a day, and its estimate after the actions. */
export interface SimulatedScore {
  score: number;
  simulatedScore: number;
}

export type CreditFileResult = { status: 'ok'; file: CreditFile } | { status: 'frozen' };

/**
 * Why a call is made, which decides the part of the per-second cap it draws on: `interactive` when a person waits for
 * the answer (verification questions, refresh now, score simulation), `monitoring` for scheduled pulls.
 */
export type BureauCallClass = 'interactive' | 'monitoring';

/** Whose call it is: the HTTP adapter shares its per-second cap fairly between clients and classes. */
export interface BureauCallOptions {
  /** The client the call serves; calls without one share a single bucket. */
  clientId?: string;
  /** `interactive` when absent. */
  callClass?: BureauCallClass;
  /**
   * The API request the call serves (`ctx.onBehalfOf`), absent for a job's: the audit trail records the pull as that
   * request's caller and id (modules/audit/audited-bureau.ts, which keeps it from the provider itself).
   */
  onBehalfOf?: OnBehalfOf | undefined;
}

/** How a billed pull is identified to the bureau, and whose it is. */
export interface PullOptions extends BureauCallOptions {
  /**
   * The pull's idempotency key (`usr_…:verification:<session>`, `usr_…:period:3`, `usr_…:refresh:<time>`): a request
   * repeated with the same key is the same pull, billed once. Monitoring repeats a period's request only when a worker
   * died between the bureau's answer and the commit.
   */
  pullId?: string;
  /** Keeps the file in the bureau's trigger monitoring under the subject's reference (a monitored customer's pulls). */
  monitor?: boolean;
}

/** The changes on a monitored file a bureau reports the day they happen. */
export const TRIGGER_TYPES = [
  'inquiry',
  'new_account',
  'closed_account',
  'late_payment',
  'address_change',
  'fraud_alert',
  'active_duty_alert',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** One reported change: `reference` is the platform's user id given with the pull that put the file under monitoring. */
export interface BureauTrigger {
  /** The bureau's id for the trigger: the same change read twice has the same id. */
  id: string;
  reference: string;
  types: TriggerType[];
  /** YYYY-MM-DD: the day the change reached the file. */
  occurredOn: string;
}

export interface TriggerPage {
  triggers: BureauTrigger[];
  /** Where the next read starts; the same as the one given when nothing is new. */
  cursor: string | null;
}

/**
 * The bureau's trigger feed, read with a cursor: it keeps the triggers, so a reader that was down misses none, and the
 * platform reads at its own pace, within its share of the bureau's cap.
 */
export interface TriggerFeed {
  read(after: string | null, limit: number, options?: BureauCallOptions): Promise<TriggerPage>;
  /** Ends trigger monitoring of these files (the customer deleted, unverified or without consent). */
  stop(references: string[], options?: BureauCallOptions): Promise<void>;
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
  pullIdentityFile(subject: CreditSubject, asOf: Date, options?: BureauCallOptions): Promise<CreditFile>;
  /**
   * The bureau's estimate of the score after `actions`, on the same file a pull as of `asOf` returns: neither a pull
   * nor billed as one, and nothing is kept. A frozen file can still be simulated (nothing is disclosed to a lender).
   */
  simulateScore(
    subject: CreditSubject,
    asOf: Date,
    actions: SimulationAction[],
    options?: BureauCallOptions,
  ): Promise<SimulatedScore>;
  /** Bureaus that report changes on monitored files the same day. */
  readonly triggers?: TriggerFeed;
  /**
   * Sandbox only: the next day after `after` on which this file changes as a trigger would report, from the sandbox's own
   * calendar of monthly events; a pull then schedules that day's trigger itself, on real time and on test clocks alike.
   */
  nextFileChange?(subject: CreditSubject, after: Date): Promise<{ on: string; types: TriggerType[] } | null>;
  /** Sandbox only: whether identity verification must fail for this subject (ssn `9999`). */
  alwaysFailsVerification?(subject: CreditSubject): boolean;
  /** Releases what the adapter holds (the HTTP bureau's keep-alive connections); called once, on shutdown. */
  close?(): Promise<void>;
}
