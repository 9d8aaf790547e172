import {
  type TBatchEnrollResult,
  type TDeletedUser,
  type TEnrolledUser,
  type TEnrollmentInput,
  type TListUsersQuery,
  type TSelfEnrollmentInput,
  type TUser,
  ZEnrollmentInput,
} from '@credit/contract';
import type { CreditSubject } from '../../bureau/provider.ts';
import { writeTransaction } from '../../cache/invalidation.ts';
import { type CacheTag, scoresTag, userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound, validationError } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import { type Caller, tokenUser } from '../../core/principal.ts';
import type { UserClock } from '../../core/request-scope.ts';
import { zodIssuesToDetails } from '../../core/zod-details.ts';
import { isUniqueViolation, type Queryable } from '../../db/db.ts';
import { StatementBatch } from '../../db/statement-batch.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { actorOf, recordAudit, recordUserPurges } from '../audit/service.ts';
import { countProgram } from '../program/service.ts';
import { assertAdultAge } from './age.ts';
import { assertCurrentConsent } from './consent-gate.ts';
import { consentSummary, enrolmentConsent, type RequestOrigin } from './consent-record.ts';
import { findConsentGate, insertCurrentConsent } from './consent-repo.ts';
import {
  findIdentity,
  findLiveUser,
  findLiveUserByExternalId,
  type IdentityRow,
  insertUser,
  listLiveUsers,
  markUserDeleted,
  purgeUsersDeletedBefore,
  setUserLocale,
  toUser,
  type UserRow,
  usersOnClock,
} from './repo.ts';

export type { ConsentColumns } from './consent-gate.ts';
export { assertCurrentConsent, consentPause } from './consent-gate.ts';
export type { RequestOrigin } from './consent-record.ts';
export { findConsentGate, findConsentGates } from './consent-repo.ts';
export {
  attachUsersToClock,
  clearExpiredLock,
  detachClockUsers,
  effectiveStatus,
  type IdentityRow,
  markAlertEmailsUnsubscribed,
  markVerified,
  recordFailureOutcome,
  setLastScoreDate,
  type UserRow,
} from './repo.ts';
export {
  type ClaimedUser,
  claimManualRefresh,
  claimUsersDueForRefresh,
  completePeriod,
  deferForConsent,
  dueOnClock,
  endManualRefreshLease,
  finishTriggeredPull,
  type ManualRefreshClaim,
  type ManualRefreshSlot,
  manualRefreshSlot,
  markFrozen,
  markRefreshed,
  recordFailedAttempt,
  refreshTriggerDue,
  releaseManualRefresh,
  retryTrigger,
  scheduleTriggers,
  skipPeriod,
  unschedule,
} from './schedule-repo.ts';

const DELETION_MESSAGE = 'The user has been deleted. Their personal data is permanently removed within 30 days.';

/** Encrypts identity fields bound to this user's row, so they cannot be moved to another row. */
export const sealIdentity = (ctx: AppContext, userId: string, input: TEnrollmentInput) => ({
  ssnEnc: ctx.cipher.encrypt(input.ssn, `users.ssn:${userId}`),
  dateOfBirthEnc: ctx.cipher.encrypt(input.dateOfBirth, `users.date_of_birth:${userId}`),
  addressEnc: ctx.cipher.encrypt(JSON.stringify(input.address), `users.address:${userId}`),
  phoneEnc: input.phone ? ctx.cipher.encrypt(input.phone, `users.phone:${userId}`) : null,
});

/** The user row, its consent and its `user.enrolled` event go in one statement so they commit together. */
const enrollValidated = async (
  ctx: AppContext,
  caller: Caller,
  input: TEnrollmentInput,
  origin: RequestOrigin,
): Promise<TEnrolledUser> => {
  const clientId = caller.clientId;
  assertAdultAge(input.dateOfBirth, ctx.clock.now());
  const userId = ctx.ids.id('usr');
  const createdAt = ctx.clock.now();
  const status = 'pending_verification' as const;
  const consent = enrolmentConsent(ctx, caller, userId, input.consent, origin, createdAt);
  try {
    const tx = new StatementBatch();
    await insertUser(tx, {
      id: userId,
      clientId,
      externalUserId: input.externalUserId,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      status,
      ...sealIdentity(ctx, userId, input),
      createdAt,
      consentValidUntil: consent.expiresAt,
      locale: input.locale,
    });
    await recordEvent(tx, ctx.ids, {
      clientId,
      type: 'user.enrolled',
      data: { userId, externalUserId: input.externalUserId, email: input.email, status },
      createdAt,
    });
    await countProgram(tx, { clientId, metric: 'enrolled', at: createdAt });
    await countProgram(tx, { clientId, metric: 'consented', at: createdAt });
    await insertCurrentConsent(tx, consent, true);
    await recordAudit(
      ctx,
      {
        type: 'consent.given',
        clientId,
        actor: actorOf(caller.principal),
        userId,
        requestId: origin.requestId,
        subject: { consentId: consent.id, termsVersion: consent.termsVersion, method: consent.method },
      },
      tx,
    );
    await tx.run(ctx.db);
  } catch (error) {
    if (isUniqueViolation(error, 'users_live_external_id')) {
      throw new ApiError('USER_EXISTS', `A user with externalUserId "${input.externalUserId}" is already enrolled.`);
    }
    throw error;
  }
  return {
    userId,
    externalUserId: input.externalUserId,
    status,
    createdAt: createdAt.toISOString(),
    consent: consentSummary(consent),
  };
};

export const enrollUser = async (
  ctx: AppContext,
  caller: Caller,
  body: TEnrollmentInput | TSelfEnrollmentInput,
  origin: RequestOrigin,
): Promise<TEnrolledUser> => {
  const { principal } = caller;
  if (principal.kind === 'user') {
    const { claims } = principal;
    const phone = 'phone' in body && body.phone ? body.phone : claims.phone;
    return enrollValidated(
      ctx,
      caller,
      {
        ...(body as TSelfEnrollmentInput),
        externalUserId: principal.externalUserId,
        email: claims.email,
        firstName: claims.firstName,
        lastName: claims.lastName,
        ...(phone ? { phone } : {}),
      },
      origin,
    );
  }
  return enrollValidated(ctx, caller, body as TEnrollmentInput, origin);
};

/** Each item is validated and enrolled on its own; one bad item never fails the others. */
export const enrollBatch = async (
  ctx: AppContext,
  caller: Caller,
  items: unknown[],
  origin: RequestOrigin,
): Promise<TBatchEnrollResult> => {
  const result: TBatchEnrollResult = { successful: [], failed: [] };
  for (const [index, item] of items.entries()) {
    const claimedId = (item as { externalUserId?: unknown } | null)?.externalUserId;
    const externalUserId = typeof claimedId === 'string' ? claimedId : null;
    try {
      const parsed = ZEnrollmentInput.safeParse(item);
      if (!parsed.success) throw validationError(zodIssuesToDetails(parsed.error.issues));
      const enrolled = await enrollValidated(ctx, caller, parsed.data, origin);
      const { externalUserId: enrolledId, userId, status, consent } = enrolled;
      result.successful.push({ externalUserId: enrolledId, userId, status, consent });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      result.failed.push({
        index,
        externalUserId,
        error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      });
    }
  }
  return result;
};

/** The live user the caller may see (not another client's, nor another user token's), or undefined. */
const visibleUser = async (ctx: AppContext, caller: Caller, userId: string): Promise<UserRow | undefined> => {
  const row = await ctx.readCache.read(
    `user:${caller.clientId}:${userId}`,
    () => findLiveUser(ctx.db, caller.clientId, userId),
    (found) => [userTag(found.id), scoresTag(found.id)],
  );
  if (!row || (caller.ownExternalUserId !== undefined && row.external_user_id !== caller.ownExternalUserId)) return undefined;
  return row;
};

/**
 * Another client's or another user token's user looks absent (404). Also cached under scores:<id>, because storing a score
 * sets the row's last_score_date.
 */
export const requireUser = async (ctx: AppContext, caller: Caller, userId: string): Promise<UserRow> => {
  const row = await visibleUser(ctx, caller, userId);
  if (!row) throw notFound('User');
  return row;
};

/** Sandbox: the test clock of a user the caller may see, which a route about the user reads as now (http/route.ts). */
export const userClockOf = async (ctx: AppContext, caller: Caller, userId: string): Promise<UserClock | undefined> => {
  const row = await visibleUser(ctx, caller, userId);
  return row?.clock_time ? { at: new Date(row.clock_time), advancing: Boolean(row.clock_advancing) } : undefined;
};

/** A transaction that writes user rows (or what is cached with them: scores): the caches drop what it `touches`. */
export const writeUser = <T>(ctx: AppContext, work: Parameters<typeof writeTransaction<T>>[2]): Promise<T> =>
  writeTransaction(ctx.db, ctx.readCache, work);

export const getUser = async (ctx: AppContext, caller: Caller, userId: string): Promise<TUser> =>
  toUser(await requireUser(ctx, caller, userId), ctx.clock.now());

/** Every bureau pull passes here, so this is where it throws 403 CONSENT_REQUIRED without current consent at `asOf`. */
export const loadCreditSubject = async (
  ctx: AppContext,
  user: UserRow & Partial<IdentityRow>,
  asOf: Date = ctx.clock.now(),
): Promise<CreditSubject> => {
  assertCurrentConsent(user.consent_valid_until === undefined ? await findConsentGate(ctx.db, user.id) : user, asOf);
  const { ssn_enc, date_of_birth_enc, address_enc } = user;
  const identity =
    ssn_enc && date_of_birth_enc && address_enc
      ? { ssn_enc, date_of_birth_enc, address_enc }
      : await findIdentity(ctx.db, user.id);
  if (!identity) throw notFound('User');
  return {
    userId: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    ssnLast4: ctx.cipher.decrypt(identity.ssn_enc, `users.ssn:${user.id}`),
    dateOfBirth: ctx.cipher.decrypt(identity.date_of_birth_enc, `users.date_of_birth:${user.id}`),
    address: JSON.parse(ctx.cipher.decrypt(identity.address_enc, `users.address:${user.id}`)),
  };
};

/** The state of the user's enrolled address (offer rules read it), read through `db` (a transaction's, inside one). */
export const enrolledAddressState = async (
  ctx: Pick<AppContext, 'cipher'>,
  db: Queryable,
  user: { id: string; address_enc?: string | null },
): Promise<string | null> => {
  const sealed = user.address_enc ?? (await findIdentity(db, user.id))?.address_enc;
  if (!sealed) return null;
  const address = JSON.parse(ctx.cipher.decrypt(sealed, `users.address:${user.id}`)) as { state?: string };
  return address.state ?? null;
};

/** The users on a test clock whose monitoring is paused at the clock's time, and why. */
export const pausedUsersOnClock = async (db: Queryable, clockId: string, realNow: Date) =>
  (await usersOnClock(db, clockId)).flatMap((row) => {
    const { monitoring } = toUser(row, realNow);
    return monitoring.status === 'paused' && monitoring.pausedReason ? [{ userId: row.id, reason: monitoring.pausedReason }] : [];
  });

/** Keeps the language the token's enrolled user sees the widget in, for their alert e-mails. */
export const recordWidgetLocale = async (ctx: AppContext, caller: Caller, userId: string, locale: 'en' | 'es') =>
  setUserLocale(ctx.db, caller.clientId, userId, locale);

export const getMe = async (ctx: AppContext, caller: Caller): Promise<TUser> => {
  const row = await findLiveUserByExternalId(ctx.db, caller.clientId, tokenUser(caller).externalUserId);
  if (!row) throw new ApiError('USER_NOT_ENROLLED', 'This user has not enrolled yet: enrol first (POST /v1/users/enroll).');
  return toUser(row, ctx.clock.now());
};

export const listUsers = async (ctx: AppContext, caller: Caller, query: TListUsersQuery) => {
  const now = ctx.clock.now();
  const page = await listLiveUsers(ctx.db, caller.clientId, query, now, cursorsOf(ctx));
  return { items: page.items.map((row) => toUser(row, now)), pagination: page.pagination };
};

export const deleteUser = async (ctx: AppContext, caller: Caller, userId: string): Promise<TDeletedUser> => {
  // Real time (read before requireUser enters a test clock's): the purge 30 days on counts from it.
  const deletedAt = ctx.clock.now();
  await requireUser(ctx, caller, userId);
  const deleted = await writeUser(ctx, (tx, touches) => deleteUserRows(tx, ctx, caller.clientId, [userId], deletedAt, touches));
  if (deleted.length === 0) throw notFound('User');
  return { userId, deletedAt: deletedAt.toISOString(), message: DELETION_MESSAGE };
};

/** Runs in the caller's transaction so deleting a test clock can take its users with it; answers the ids that were live. */
export const deleteUserRows = async (
  tx: Queryable,
  ctx: AppContext,
  clientId: string,
  userIds: string[],
  deletedAt: Date,
  touches: (...tags: CacheTag[]) => void,
): Promise<string[]> => {
  const deleted: string[] = [];
  for (const userId of userIds) {
    const row = await markUserDeleted(tx, clientId, userId, deletedAt);
    if (!row) continue;
    touches(userTag(userId));
    await recordEvent(tx, ctx.ids, {
      clientId,
      type: 'user.deleted',
      data: { userId, externalUserId: row.external_user_id, deletedAt: deletedAt.toISOString() },
      createdAt: deletedAt,
    });
    await recordAudit(ctx, { type: 'user.deleted', clientId, userId }, tx);
    deleted.push(userId);
  }
  return deleted;
};

/** `eraseDependents` is injected (the worker wires credit's in) because users sits below credit and does not import it. */
export const purgeDeletedUsers = async (
  ctx: AppContext,
  eraseDependents: (tx: Queryable, userIds: string[]) => Promise<void>,
): Promise<number> => {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - ctx.config.USER_PURGE_AFTER_DAYS * 24 * 60 * 60 * 1000);
  return writeUser(ctx, async (tx, touches) => {
    const purged = await purgeUsersDeletedBefore(tx, cutoff, now);
    touches(...purged.map(userTag));
    await eraseDependents(tx, purged);
    await recordUserPurges(ctx, tx, purged);
    return purged.length;
  });
};
