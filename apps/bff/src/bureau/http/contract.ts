import { CREDIT_BUREAUS, SCORE_MAX, SCORE_MIN } from '@credit/contract';
import { z } from 'zod';
import {
  type CreditFile,
  type CreditFileResult,
  type CreditSubject,
  type SimulatedScore,
  type SimulationAction,
  TRIGGER_TYPES,
} from '../provider.ts';

/**
 * The one JSON contract between this platform and a credit bureau (or the gateway in front of one).
 * Every call is `POST` with the identity in the body, never in the URL, so no proxy or access log
 * along the way records it. The sandbox bureau (`pnpm bureau`) serves exactly this; docs/operator/bureau.md
 * has a sample of each request and answer.
 */
export const BUREAU_PATHS = {
  creditFile: '/v1/credit-file',
  creditFiles: '/v1/credit-files',
  identityFile: '/v1/identity-file',
  scoreSimulation: '/v1/score-simulation',
  triggers: '/v1/triggers',
  stopTriggers: '/v1/triggers/stop',
} as const;

/** Most triggers one feed read answers, and most references one stop names. */
export const MAX_BUREAU_TRIGGER_PAGE = 1000;

/** Most pulls one `/v1/credit-files` request carries. */
export const MAX_BUREAU_BATCH_PULLS = 50;

/** Most actions one simulation names. */
export const MAX_BUREAU_SIMULATION_ACTIONS = 10;

/** The header carrying the API key when the bureau authenticates by key rather than client certificate. */
export const BUREAU_API_KEY_HEADER = 'x-api-key';

/** Largest answer read: a credit file is a few kilobytes; anything far larger is refused unread. */
export const BUREAU_MAX_ANSWER_BYTES = 1024 * 1024;

const isoDay = z.iso.date();
const text = (max: number) => z.string().trim().min(1).max(max);
const amount = z.number().finite().min(0).max(1e9);

export const ZBureauAddress = z.object({
  street: text(200),
  city: text(100),
  state: z.string().regex(/^[A-Z]{2}$/),
  zipCode: z.string().regex(/^\d{5}(-\d{4})?$/),
});

/** Who is asked about: the identity fields given at enrolment, decrypted for this call only. */
export const ZBureauSubject = z.object({
  firstName: text(100),
  lastName: text(100),
  ssnLast4: z.string().regex(/^\d{4}$/),
  dateOfBirth: isoDay,
  address: ZBureauAddress,
});

/** The body of both calls. `asOf`: the day the file is wanted as of (the platform's clock; sandbox clocks move it). */
export const ZBureauFileRequest = z.object({
  subject: ZBureauSubject,
  asOf: z.iso.datetime(),
  /** The platform's opaque id for the person (`usr_…`, not personal data), for the bureau's audit trail. */
  reference: z.string().max(100).optional(),
  /** The pull's idempotency key: a bureau bills one pull per key (the platform repeats a request only after a crash). */
  pullId: z.string().max(200).optional(),
  /**
   * `/v1/credit-file` only: keep this file in trigger monitoring under `reference` (every pull of a monitored customer
   * sends it, so a bureau that lost its list has it back within a period).
   */
  monitor: z.boolean().optional(),
});
export type TBureauFileRequest = z.infer<typeof ZBureauFileRequest>;

const TRADELINE_KINDS = ['credit_card', 'auto_loan', 'student_loan', 'mortgage', 'personal_loan'] as const;
const LOAN_KINDS = ['auto_loan', 'student_loan', 'mortgage', 'personal_loan'] as const;
const TRADELINE_STATUSES = ['open', 'closed', 'paid_off', 'charged_off'] as const;
const PAYMENT_STATUSES = ['ok', '30', '60', '90', '120', 'charge_off', 'no_data'] as const;

/**
 * The full report's fields (status, payments, the payment grid; collections and the rest on the file) may be absent,
 * so a gateway that does not send them still gives a usable file: they read as nothing reported (empty lists, nulls),
 * and a missing status is read from `closedOn`.
 */
export const ZBureauTradeline = z
  .object({
    id: text(100),
    lender: text(200),
    kind: z.enum(TRADELINE_KINDS),
    status: z.enum(TRADELINE_STATUSES).optional(),
    openedOn: isoDay,
    closedOn: isoDay.nullable(),
    limitOrAmount: amount,
    balance: amount,
    latePayments: z.number().int().min(0).max(1000),
    monthlyPayment: amount.nullable().default(null),
    apr: z.number().finite().min(0).max(100).nullable().default(null),
    termMonths: z.number().int().min(1).max(600).nullable().default(null),
    /** The file's month first, then each month before it. */
    paymentHistory: z.array(z.enum(PAYMENT_STATUSES)).max(24).default([]),
  })
  .transform(({ status, ...tradeline }) => ({
    ...tradeline,
    status: status ?? (tradeline.closedOn === null ? 'open' : 'closed'),
  }));

export const ZBureauCollection = z.object({
  id: text(100),
  agency: text(200),
  originalCreditor: text(200),
  reportedOn: isoDay,
  originalAmount: amount,
  balance: amount,
  paidOn: isoDay.nullable(),
});

export const ZBureauPublicRecord = z.object({
  type: z.enum(['bankruptcy_chapter_7', 'bankruptcy_chapter_13']),
  status: z.enum(['filed', 'discharged', 'dismissed']),
  filedOn: isoDay,
  resolvedOn: isoDay.nullable(),
  court: text(200),
});

const ZBureauInquiry = z.object({ source: text(200), date: isoDay });

export const ZBureauCreditFile = z.object({
  bureau: z.enum(CREDIT_BUREAUS),
  /** Oldest first; the last one is the current score. At least one. */
  monthlyScores: z
    .array(z.object({ date: isoDay, score: z.number().int().min(SCORE_MIN).max(SCORE_MAX) }))
    .min(1)
    .max(600),
  tradelines: z.array(ZBureauTradeline).max(500),
  inquiries: z.array(ZBureauInquiry).max(500),
  pastAddresses: z.array(ZBureauAddress.extend({ from: isoDay, to: isoDay })).max(100),
  /** Every address reported for the person, oldest first, each dated the day the bureau first received it. */
  reportedAddresses: z.array(ZBureauAddress.extend({ reportedOn: isoDay })).max(100),
  /** Fraud and active-duty alerts currently on the file. */
  flags: z.array(z.object({ type: z.enum(['fraud_alert', 'active_duty_alert']), placedOn: isoDay })).max(20),
  onTimePaymentPercent: z.number().finite().min(0).max(100),
  /** Debts in collection, oldest first. */
  collections: z.array(ZBureauCollection).max(100).default([]),
  publicRecords: z.array(ZBureauPublicRecord).max(20).default([]),
  /** Checks that cannot affect the score (pre-approvals, the person's own), last 24 months, oldest first. */
  softInquiries: z.array(ZBureauInquiry).max(500).default([]),
  names: z.array(text(200)).max(20).default([]),
  yearOfBirth: z.number().int().min(1850).max(2200).nullable().default(null),
  /** Oldest first. */
  employers: z
    .array(z.object({ name: text(200), reportedOn: isoDay }))
    .max(50)
    .default([]),
});

/** `POST /v1/credit-file`: the file a lender sees, or `frozen` while the consumer has a security freeze. */
export const ZBureauCreditFileAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), file: ZBureauCreditFile }),
  z.object({ status: z.literal('frozen') }),
]);

/**
 * `POST /v1/credit-files`: several monitoring pulls in one request, each exactly as `/v1/credit-file` would take it
 * (its own subject, day, reference, `pullId` and `monitor`), billed one pull per `pullId`.
 */
export const ZBureauCreditFilesRequest = z.object({
  pulls: z.array(ZBureauFileRequest).min(1).max(MAX_BUREAU_BATCH_PULLS),
});
export type TBureauCreditFilesRequest = z.infer<typeof ZBureauCreditFilesRequest>;

/**
 * One answer per pull, in the request's order, each naming the pull it answers (its `reference` and `pullId`, checked
 * against the request so no file reaches another customer): what `/v1/credit-file` answers, or `failed` when the
 * bureau could not build that one file (as its 5xx would say: asked again, alone or in a later request). Each answer
 * is validated on its own, so one unusable file costs only its own pull.
 */
export const ZBureauCreditFilesAnswer = z.object({
  results: z.array(z.unknown()).min(1).max(MAX_BUREAU_BATCH_PULLS),
});
export const ZBureauBatchPullOf = z.object({ reference: z.string().optional(), pullId: z.string().optional() });
export const ZBureauBatchPullFailed = z.object({ status: z.literal('failed') });

/** `POST /v1/identity-file`: the same file for identity questions; a freeze never blocks it. */
export const ZBureauIdentityFileAnswer = z.object({ file: ZBureauCreditFile });

const tradelineId = text(100);
const positiveAmount = z.number().finite().positive().max(1e9);

/** What a simulation changes on the file, accounts named by their tradeline `id`. */
export const ZBureauSimulationAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('pay_down_balance'), tradelineId, amount: positiveAmount }),
  z.object({ type: z.literal('pay_on_time'), months: z.number().int().min(1).max(120) }),
  z.object({ type: z.literal('open_credit_card'), creditLimit: positiveAmount }),
  z.object({ type: z.literal('take_loan'), loanType: z.enum(LOAN_KINDS), amount: positiveAmount }),
  z.object({ type: z.literal('close_account'), tradelineId }),
  z.object({ type: z.literal('miss_payment'), tradelineId }),
  z.object({ type: z.literal('hard_inquiry') }),
  z.object({ type: z.literal('raise_credit_limit'), tradelineId, newLimit: positiveAmount }),
]);

/**
 * The body of `/v1/score-simulation`: the file a pull as of `asOf` would return, and the actions to apply to it, in
 * order. No `pullId`: a simulation is not a pull and is never billed as one.
 */
export const ZBureauSimulationRequest = z.object({
  subject: ZBureauSubject,
  asOf: z.iso.datetime(),
  /** The platform's opaque id for the person (`usr_…`), for the bureau's audit trail. */
  reference: z.string().max(100).optional(),
  actions: z.array(ZBureauSimulationAction).min(1).max(MAX_BUREAU_SIMULATION_ACTIONS),
});
export type TBureauSimulationRequest = z.infer<typeof ZBureauSimulationRequest>;

/** `POST /v1/score-simulation`: the file's score as of `asOf`, and the bureau's estimate after the actions. */
export const ZBureauSimulationAnswer = z.object({
  score: z.number().int().min(SCORE_MIN).max(SCORE_MAX),
  simulatedScore: z.number().int().min(SCORE_MIN).max(SCORE_MAX),
});

/** `POST /v1/triggers`: the triggers after `after` (null: from the oldest kept), oldest first. */
export const ZBureauTriggerRequest = z.object({
  after: z.string().max(200).nullable().default(null),
  limit: z.number().int().min(1).max(MAX_BUREAU_TRIGGER_PAGE).default(100),
});

export const ZBureauTriggerPage = z.object({
  triggers: z
    .array(
      z.object({
        id: text(200),
        reference: text(100),
        types: z.array(z.enum(TRIGGER_TYPES)).min(1).max(TRIGGER_TYPES.length),
        occurredOn: isoDay,
      }),
    )
    .max(MAX_BUREAU_TRIGGER_PAGE),
  /** Where the next read starts (the last trigger's position, or `after` again when nothing is new). */
  cursor: z.string().max(200).nullable(),
});

/** `POST /v1/triggers/stop`: these files leave trigger monitoring. */
export const ZBureauStopTriggersRequest = z.object({
  references: z.array(text(100)).min(1).max(MAX_BUREAU_TRIGGER_PAGE),
});
export const ZBureauStopTriggersAnswer = z.object({ stopped: z.number().int().min(0) });

const wireSubject = (subject: CreditSubject): TBureauFileRequest['subject'] => ({
  firstName: subject.firstName,
  lastName: subject.lastName,
  ssnLast4: subject.ssnLast4,
  dateOfBirth: subject.dateOfBirth,
  address: {
    street: subject.address.street,
    city: subject.address.city,
    state: subject.address.state,
    zipCode: subject.address.zipCode,
  },
});

/** The wire body of a call: the identity fields, the day, and the platform's user id as the reference. */
export const toBureauRequest = (subject: CreditSubject, asOf: Date, pullId?: string, monitor?: boolean): TBureauFileRequest => ({
  subject: wireSubject(subject),
  asOf: asOf.toISOString(),
  reference: subject.userId,
  ...(pullId ? { pullId } : {}),
  ...(monitor ? { monitor: true } : {}),
});

/** The wire body of a simulation: a file request's fields but the pull id, and the actions. */
export const toBureauSimulationRequest = (
  subject: CreditSubject,
  asOf: Date,
  actions: SimulationAction[],
): TBureauSimulationRequest => ({
  subject: wireSubject(subject),
  asOf: asOf.toISOString(),
  reference: subject.userId,
  actions,
});

// The wire schemas and the provider's types must describe the same file: a field added to one and not the
// other fails the typecheck here, not in production.
// (Strict equality: a field optional on one side only, or missing on one side, fails too.)
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const fileMatchesProvider: Same<z.infer<typeof ZBureauCreditFile>, CreditFile> = true;
const answerMatchesProvider: Same<z.infer<typeof ZBureauCreditFileAnswer>, CreditFileResult> = true;
const subjectMatchesProvider: Same<z.infer<typeof ZBureauSubject>, Omit<CreditSubject, 'userId'>> = true;
const actionMatchesProvider: Same<z.infer<typeof ZBureauSimulationAction>, SimulationAction> = true;
const simulationMatchesProvider: Same<z.infer<typeof ZBureauSimulationAnswer>, SimulatedScore> = true;
void [fileMatchesProvider, answerMatchesProvider, subjectMatchesProvider, actionMatchesProvider, simulationMatchesProvider];
