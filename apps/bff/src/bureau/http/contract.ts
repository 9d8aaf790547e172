import { CREDIT_BUREAUS, SCORE_MAX, SCORE_MIN } from '@credit/contract';
import { z } from 'zod';
import type { CreditFile, CreditFileResult, CreditSubject } from '../provider.ts';

/**
 * The one JSON contract between this platform and a credit bureau (or the gateway in front of one).
 * Both calls are `POST` with the identity in the body, never in the URL, so no proxy or access log
 * along the way records it. The sandbox bureau (`pnpm bureau`) serves exactly this; docs/operator/bureau.md
 * has a sample of each request and answer.
 */
export const BUREAU_PATHS = {
  creditFile: '/v1/credit-file',
  identityFile: '/v1/identity-file',
} as const;

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
});
export type TBureauFileRequest = z.infer<typeof ZBureauFileRequest>;

export const ZBureauTradeline = z.object({
  id: text(100),
  lender: text(200),
  kind: z.enum(['credit_card', 'auto_loan', 'student_loan', 'mortgage', 'personal_loan']),
  openedOn: isoDay,
  closedOn: isoDay.nullable(),
  limitOrAmount: amount,
  balance: amount,
  latePayments: z.number().int().min(0).max(1000),
});

export const ZBureauCreditFile = z.object({
  bureau: z.enum(CREDIT_BUREAUS),
  /** Oldest first; the last one is the current score. At least one. */
  monthlyScores: z
    .array(z.object({ date: isoDay, score: z.number().int().min(SCORE_MIN).max(SCORE_MAX) }))
    .min(1)
    .max(600),
  tradelines: z.array(ZBureauTradeline).max(500),
  inquiries: z.array(z.object({ source: text(200), date: isoDay })).max(500),
  pastAddresses: z.array(ZBureauAddress.extend({ from: isoDay, to: isoDay })).max(100),
  /** Every address reported for the person, oldest first, each dated the day the bureau first received it. */
  reportedAddresses: z.array(ZBureauAddress.extend({ reportedOn: isoDay })).max(100),
  /** Fraud and active-duty alerts currently on the file. */
  flags: z.array(z.object({ type: z.enum(['fraud_alert', 'active_duty_alert']), placedOn: isoDay })).max(20),
  onTimePaymentPercent: z.number().finite().min(0).max(100),
});

/** `POST /v1/credit-file`: the file a lender sees, or `frozen` while the consumer has a security freeze. */
export const ZBureauCreditFileAnswer = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ok'), file: ZBureauCreditFile }),
  z.object({ status: z.literal('frozen') }),
]);

/** `POST /v1/identity-file`: the same file for identity questions; a freeze never blocks it. */
export const ZBureauIdentityFileAnswer = z.object({ file: ZBureauCreditFile });

/** The wire body of a call: the identity fields, the day, and the platform's user id as the reference. */
export const toBureauRequest = (subject: CreditSubject, asOf: Date, pullId?: string): TBureauFileRequest => ({
  subject: {
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
  },
  asOf: asOf.toISOString(),
  reference: subject.userId,
  ...(pullId ? { pullId } : {}),
});

// The wire schemas and the provider's types must describe the same file: a field added to one and not the
// other fails the typecheck here, not in production.
// (Strict equality: a field optional on one side only, or missing on one side, fails too.)
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const fileMatchesProvider: Same<z.infer<typeof ZBureauCreditFile>, CreditFile> = true;
const answerMatchesProvider: Same<z.infer<typeof ZBureauCreditFileAnswer>, CreditFileResult> = true;
const subjectMatchesProvider: Same<z.infer<typeof ZBureauSubject>, Omit<CreditSubject, 'userId'>> = true;
void [fileMatchesProvider, answerMatchesProvider, subjectMatchesProvider];
