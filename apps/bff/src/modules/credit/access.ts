import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import type { UserRow } from '../users/service.ts';
import { assertCurrentConsent, effectiveStatus, loadCreditSubject, requireUser } from '../users/service.ts';
import { type FileOnRecord, openCreditFile } from './file-on-record.ts';
import { findSealedFileOnRecord } from './repo.ts';

/**
 * The user behind a credit route: visible to this caller (else 404) and `active` (else 403
 * USER_NOT_ENROLLED, saying which step is missing).
 */
export const requireActiveUser = async (ctx: AppContext, caller: Caller, userId: string): Promise<UserRow> => {
  const user = await requireUser(ctx, caller, userId);
  const status = effectiveStatus(user, ctx.clock.now());
  if (status === 'active') return user;
  const why =
    status === 'locked'
      ? 'Identity verification is locked after too many failed attempts; it unlocks 24 hours after the last failure.'
      : 'The user is enrolled but has not passed identity verification yet (GET …/verification/questions).';
  throw new ApiError('USER_NOT_ENROLLED', why);
};

const bureauUnavailable = () =>
  new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau is not available in this environment. Try again later.');

/** The bureau of this environment, for a call that is not a pull (a score simulation): none configured is a 503. */
export const requireBureau = (ctx: AppContext): NonNullable<AppContext['bureau']> => {
  if (!ctx.bureau) throw bureauUnavailable();
  return ctx.bureau;
};

const frozen = () =>
  new ApiError(
    'CREDIT_FROZEN',
    'This user’s credit file is frozen at the bureau. The user must lift the freeze; the next refresh (scheduled, or ' +
      'POST …/credit-score/refresh) then reads it.',
  );

/** How long a caller is asked to wait for a first pull that has not committed yet: the monitoring job retries it. */
const FIRST_PULL_RETRY_AFTER_S = 60;

const notPulledYet = () =>
  new ApiError(
    'SERVICE_UNAVAILABLE',
    'This user’s credit file has not been pulled yet: the first pull after verification did not complete, and the ' +
      'monitoring job is retrying it. Try again later.',
    undefined,
    { retryAfter: FIRST_PULL_RETRY_AFTER_S },
  );

/** The file on record as stored now, whatever the freeze or consent (the caller decided those); undefined before a pull. */
export const loadFileOnRecord = async (ctx: AppContext, userId: string): Promise<FileOnRecord | undefined> => {
  const sealed = await findSealedFileOnRecord(ctx.db, userId);
  return sealed && { file: openCreditFile(ctx, userId, sealed.sealed), asOf: sealed.asOf };
};

/**
 * The file on record: the file of the user's last committed pull (verification's first pull, a monitoring period or
 * refresh now), never a new pull. No current consent → 403 CONSENT_REQUIRED (a file pulled earlier is not shown after
 * the consumer withdrew); the last pull found the file frozen → 403 CREDIT_FROZEN; no pull committed yet → 503 with
 * Retry-After. Cached per user until a write to the user (tag user:<id>: every commit of a pull touches it).
 */
export const creditFileOnRecord = async (ctx: AppContext, user: UserRow): Promise<FileOnRecord> => {
  assertCurrentConsent(user, ctx.clock.now());
  if (user.monitoring_paused_reason === 'credit_frozen') throw frozen();
  const record = await ctx.readCache.read(
    `file:${user.id}`,
    () => loadFileOnRecord(ctx, user.id),
    () => [userTag(user.id)],
  );
  if (!record) throw notPulledYet();
  return record;
};

/** The file behind identity verification: a freeze does not block it, a missing bureau does (503). */
export const pullIdentityFile = async (ctx: AppContext, user: UserRow) => {
  const bureau = requireBureau(ctx);
  const subject = await loadCreditSubject(ctx, user);
  const call = { clientId: user.client_id, callClass: 'interactive', onBehalfOf: ctx.onBehalfOf } as const;
  return { subject, file: await bureau.pullIdentityFile(subject, ctx.clock.now(), call) };
};
