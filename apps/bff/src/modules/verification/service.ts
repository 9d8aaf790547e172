import type {
  TSandboxVerificationAnswers,
  TVerificationAnswersInput,
  TVerificationResult,
  TVerificationSession,
} from '@credit/contract';
import type { CreditFileResult, CreditSubject } from '../../bureau/provider.ts';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, notFound } from '../../core/api-error.ts';
import type { Caller } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { hasFileOnRecord, pullIdentityFile } from '../credit/service.ts';
import { applyVerificationPull } from '../monitoring/service.ts';
import { countProgram } from '../program/service.ts';
import type { UserRow } from '../users/service.ts';
import {
  clearExpiredLock,
  loadCreditSubject,
  markVerified,
  recordFailureOutcome,
  requireUser,
  writeUser,
} from '../users/service.ts';
import { allAnswersRight, openAnswerKey, openSession, sealSession } from './answer-key.ts';
import { contentSeed, identityHashes } from './identity.ts';
import { afterFailure, assertNotLocked, LOCK_WINDOW_MS, verificationLocked } from './lock.ts';
import { buildQuestionSet } from './questions/build-question-set.ts';
import {
  claimSession,
  countFailuresSince,
  findSession,
  identityLockEnd,
  insertSession,
  lockVerificationState,
  type SessionRow,
  sessionsStartedSince,
} from './repo.ts';

export const SESSION_TTL_MS = 10 * 60 * 1000;
/** VERIFICATION_SESSIONS_PER_DAY counts the sessions started within this window. */
const SESSIONS_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Keyed by the session: answers sent again after a crash before the commit ask the bureau for the same pull. */
const verificationPullId = (userId: string, sessionId: string) => `${userId}:verification:${sessionId}`;

const ALREADY_ANSWERED =
  'This verification session has already been answered; each session can be answered once. Start a new one.';

/** Problems with the `sessionId` of an answer are validation errors on that field. */
const badSession = (message: string) => new ApiError('VALIDATION_ERROR', message, [{ field: 'sessionId', message }]);

/** Keyed like the content seed: a session's order and option ids must not be computable from its id. */
const sessionSeed = (ctx: AppContext, sessionId: string) => ctx.tokens.hash(`verification.session:${sessionId}`);

/**
 * The person behind a user, as failures are counted: throws 403 VERIFICATION_LOCKED while the
 * identity is locked by failures under any of its enrolments at this client (never another tenant's).
 */
const identityOf = async (ctx: AppContext, user: UserRow, now: Date) => {
  const subject = await loadCreditSubject(ctx, user);
  const hashes = identityHashes(ctx, subject);
  const until = await identityLockEnd(ctx.db, user.client_id, hashes, now);
  if (until) throw verificationLocked(until);
  return { subject, hashes };
};

/**
 * Pulls the lender-facing file to start the score history on a pass: a frozen file starts none
 * (its score must not reach the client through `score.updated`). Pulled before the transaction,
 * so a bureau outage fails the request without using up the session.
 */
const fileForScores = async (
  ctx: AppContext,
  user: UserRow,
  subject: CreditSubject,
  now: Date,
  pullId: string,
): Promise<CreditFileResult> => {
  if (!ctx.bureau) {
    throw new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau is not available in this environment. Try again later.');
  }
  return ctx.bureau.pullCreditFile(subject, now, {
    pullId,
    clientId: user.client_id,
    callClass: 'interactive',
    monitor: true,
    onBehalfOf: ctx.onBehalfOf,
  });
};

/**
 * The user's open session at this client (unanswered, unexpired), as first asked, when there is one sealed with its
 * questions. Otherwise throws 429 RATE_LIMIT_EXCEEDED once the user has started VERIFICATION_SESSIONS_PER_DAY sessions
 * within 24 h (each start buys a file), with the seconds until the start that must leave the window has left it.
 */
const openSessionOrAllowance = async (
  ctx: AppContext,
  db: Queryable,
  user: UserRow,
  now: Date,
): Promise<TVerificationSession | undefined> => {
  const started = await sessionsStartedSince(db, user.client_id, user.id, new Date(now.getTime() - SESSIONS_WINDOW_MS));
  const open = started.findLast((s) => !s.answered_at && new Date(s.expires_at).getTime() > now.getTime());
  const questions = open && openSession(ctx.cipher, open.id, open.answer_key_enc).questions;
  if (open && questions) return { sessionId: open.id, questions, expiresAt: new Date(open.expires_at).toISOString() };
  const limit = ctx.config.VERIFICATION_SESSIONS_PER_DAY;
  if (started.length < limit) return undefined;
  const freesUp = new Date((started[started.length - limit] as SessionRow).created_at).getTime() + SESSIONS_WINDOW_MS;
  const retryAfter = Math.max(1, Math.ceil((freesUp - now.getTime()) / 1000));
  throw new ApiError(
    'RATE_LIMIT_EXCEEDED',
    `This user has started ${limit} verification sessions in the last 24 hours; retry after ${retryAfter} s.`,
    undefined,
    { retryAfter },
  );
};

/**
 * Runs `start` unless the same key's is under way in this app, whose outcome is then shared: concurrent requests
 * share one bureau call.
 */
const sharedStart = (ctx: AppContext, key: string, start: () => Promise<TVerificationSession>) => {
  const running = ctx.services.verificationStarts;
  const under = running.get(key);
  if (under) return under;
  const started = start().finally(() => running.delete(key));
  running.set(key, started);
  return started;
};

/**
 * The user's verification session: the open one (unanswered, unexpired) as first asked, without a bureau call, or else a
 * new one of three questions from the user's identity file, within VERIFICATION_SESSIONS_PER_DAY. Works for `active`
 * users too (step-up verification). Emits nothing: only an answer changes the user.
 */
export const startVerificationSession = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
): Promise<TVerificationSession> => {
  const user = await requireUser(ctx, caller, userId);
  const now = ctx.clock.now();
  assertNotLocked(user, now);
  const identity = await identityOf(ctx, user, now);
  return sharedStart(ctx, `${caller.clientId}:${user.id}`, async () => {
    const open = await openSessionOrAllowance(ctx, ctx.db, user, now);
    if (open) return open;
    const { subject, file } = await pullIdentityFile(ctx, user);
    const sessionId = ctx.ids.id('ver');
    const set = buildQuestionSet({
      file,
      subject,
      contentSeed: contentSeed(ctx, subject),
      sessionSeed: sessionSeed(ctx, sessionId),
      asOf: now,
    });
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    return writeUser(ctx, async (tx, touches) => {
      // The user row's lock orders starts in every process: one that committed meanwhile is handed out instead.
      if (!(await lockVerificationState(tx, caller.clientId, user.id))) throw notFound('User');
      const raced = await openSessionOrAllowance(ctx, tx, user, now);
      if (raced) return raced;
      touches(userTag(user.id));
      await clearExpiredLock(tx, caller.clientId, user.id, now);
      await insertSession(tx, {
        id: sessionId,
        userId: user.id,
        clientId: caller.clientId,
        identityHash: identity.hashes[0] as string,
        answerKeyEnc: sealSession(ctx.cipher, sessionId, set),
        createdAt: now,
        expiresAt,
      });
      return { sessionId, questions: set.questions, expiresAt: expiresAt.toISOString() };
    });
  });
};

/**
 * Grades a session, once. Pass: the user becomes `active` (emitting `user.verified` the first
 * time) and, unless the file is frozen, their score history is seeded, in one transaction. Fail:
 * counts towards the lock (3 failed sessions of the user, or of the identity across its
 * enrolments at this client, within 24 h lock verification until 24 h after the last one).
 */
export const submitVerificationAnswers = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TVerificationAnswersInput,
): Promise<TVerificationResult> => {
  const user = await requireUser(ctx, caller, userId);
  const now = ctx.clock.now();
  assertNotLocked(user, now);
  const { subject, hashes } = await identityOf(ctx, user, now);
  const session = await findSession(ctx.db, caller.clientId, user.id, input.sessionId);
  if (!session) {
    throw badSession('No verification session with this id exists for this user. Start one with GET …/verification/questions.');
  }
  if (session.answered_at) {
    throw badSession(ALREADY_ANSWERED);
  }
  if (now.getTime() > new Date(session.expires_at).getTime()) {
    throw badSession(`This verification session expired at ${new Date(session.expires_at).toISOString()}. Start a new one.`);
  }
  const key = openAnswerKey(ctx.cipher, session.id, session.answer_key_enc);
  const passed = allAnswersRight(key, input.answers) && !ctx.bureau?.alwaysFailsVerification?.(subject);
  // The first pull after verification, and only the first: a step-up by a user with a file on record buys none.
  const scores =
    passed && !(await hasFileOnRecord(ctx.db, user.id))
      ? await fileForScores(ctx, user, subject, now, verificationPullId(user.id, session.id))
      : null;

  return writeUser(ctx, async (tx, touches): Promise<TVerificationResult> => {
    touches(userTag(user.id));
    const state = await lockVerificationState(tx, caller.clientId, user.id);
    if (!state) throw notFound('User');
    assertNotLocked(state, now);
    const identityLock = await identityLockEnd(tx, caller.clientId, hashes, now);
    if (identityLock) throw verificationLocked(identityLock);
    const claimed = await claimSession(tx, {
      clientId: caller.clientId,
      userId: user.id,
      sessionId: session.id,
      passed,
      at: now,
    });
    if (!claimed) {
      throw badSession(ALREADY_ANSWERED);
    }
    if (passed) {
      await markVerified(tx, user.id, now);
      // A step-up by an already verified user changes nothing a subscriber needs to hear about.
      if (state.status !== 'active') {
        await recordEvent(tx, ctx.ids, {
          clientId: caller.clientId,
          type: 'user.verified',
          data: { userId: user.id, externalUserId: state.external_user_id, verifiedAt: now.toISOString() },
          createdAt: now,
        });
        await countProgram(tx, { clientId: caller.clientId, metric: 'verified', at: now });
      }
      // The file just pulled is monitoring's first refresh: period 0 is not pulled again (unless it is dropped).
      if (scores) await applyVerificationPull(tx, ctx, user, scores, now, verificationPullId(user.id, session.id));
      return { verified: true, userId: user.id, verifiedAt: now.toISOString() };
    }
    const failures = await countFailuresSince(tx, caller.clientId, user.id, hashes, new Date(now.getTime() - LOCK_WINDOW_MS));
    const { attemptsRemaining, lockedUntil } = afterFailure(failures, now);
    await recordFailureOutcome(tx, user.id, lockedUntil);
    return {
      verified: false,
      userId: user.id,
      verifiedAt: null,
      attemptsRemaining,
      ...(lockedUntil ? { unlocksAt: lockedUntil.toISOString() } : {}),
    };
  });
};

/** Sandbox: the right answers of one of the user's sessions, in question order. */
export const getSandboxAnswers = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  sessionId: string,
): Promise<TSandboxVerificationAnswers> => {
  const user = await requireUser(ctx, caller, userId);
  const session = await findSession(ctx.db, caller.clientId, user.id, sessionId);
  if (!session) throw notFound('Verification session');
  const key = openAnswerKey(ctx.cipher, session.id, session.answer_key_enc);
  // The key lists its questions in their order (q1, q2, q3): the questions themselves are not stored.
  return { sessionId: session.id, answers: Object.entries(key).map(([questionId, answerId]) => ({ questionId, answerId })) };
};
