import type { CreditFile } from '../../bureau/provider.ts';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import type { UserRow } from '../users/service.ts';
import { assertCurrentConsent, effectiveStatus, loadCreditSubject, requireUser } from '../users/service.ts';

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

/**
 * Pulls the user's credit file from the configured bureau. No current consent → 403 CONSENT_REQUIRED (checked before
 * the day's cached file too: a file pulled this morning is not served after the consumer withdrew); no bureau → 503
 * (never synthetic data in production); a frozen file → 403 CREDIT_FROZEN.
 */
export const pullCreditFile = async (ctx: AppContext, user: UserRow): Promise<CreditFile> => {
  const now = ctx.clock.now();
  assertCurrentConsent(user, now);
  const bureau = ctx.bureau;
  if (!bureau) throw bureauUnavailable();
  // One pull per user and day at most while cached: a bureau bills every pull, and the sandbox's file is a function of
  // the day. A write to the user (tag user:<id>) or the TTL backstop (a freeze placed at the bureau) ends it.
  const result = await ctx.readCache.read(
    `file:${user.id}:${now.toISOString().slice(0, 10)}`,
    async () => bureau.pullCreditFile(await loadCreditSubject(ctx, user), now),
    () => [userTag(user.id)],
  );
  if (!result) throw bureauUnavailable();
  if (result.status === 'frozen') {
    throw new ApiError(
      'CREDIT_FROZEN',
      'This user’s credit file is frozen at the bureau. The user must lift the freeze before scores and offers can be read.',
    );
  }
  return result.file;
};

/** The file behind identity verification: a freeze does not block it, a missing bureau does (503). */
export const pullIdentityFile = async (ctx: AppContext, user: UserRow) => {
  if (!ctx.bureau) throw bureauUnavailable();
  const subject = await loadCreditSubject(ctx, user);
  return { subject, file: await ctx.bureau.pullIdentityFile(subject, ctx.clock.now()) };
};
