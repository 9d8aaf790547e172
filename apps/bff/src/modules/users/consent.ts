import {
  CONSENT_HISTORY_LIMIT,
  type TConsentRecord,
  type TConsentState,
  type TGrantConsentInput,
  type TListConsentHistoryQuery,
  type TPagination,
} from '@credit/contract';
import { userTag } from '../../cache/read-cache.ts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../core/api-error.ts';
import { cursorsOf } from '../../core/cursor.ts';
import type { Caller } from '../../core/principal.ts';
import type { Queryable } from '../../db/db.ts';
import { recordEvent } from '../../outbox/outbox.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { countProgram } from '../program/service.ts';
import { type RequestOrigin, suppliedConsent, toConsentRecord } from './consent-record.ts';
import {
  insertCurrentConsent,
  listConsentPage,
  listConsents,
  lockUserForConsent,
  supersedeOtherTermsVersions,
  withdrawOpenConsent,
} from './consent-repo.ts';
import { requireUser, writeUser } from './service.ts';

const DAY_MS = 86_400_000;

/** The consent state of a user as GET …/consent answers it, read in `db` (the caller's transaction after a write). */
const stateOf = async (ctx: AppContext, db: Queryable, userId: string, now: Date): Promise<TConsentState> => {
  // Bounded, so a user's thousandth renewal costs what the first did.
  const history = (await listConsents(db, userId, CONSENT_HISTORY_LIMIT)).map((row) => toConsentRecord(ctx, row, now));
  const current = history.find((record) => record.status === 'active') ?? null;
  const version = ctx.config.CONSENT_TERMS_VERSION;
  return {
    userId,
    current,
    reconsentRequired: current === null,
    terms: {
      currentVersion: version,
      disclosureTextId: `consent-disclosure-${version}`,
      requiresReconsent: ctx.config.CONSENT_TERMS_REQUIRE_RECONSENT,
      validityDays: Math.round(ctx.config.CONSENT_VALIDITY / DAY_MS),
    },
    history,
  };
};

export const getConsent = async (ctx: AppContext, caller: Caller, userId: string): Promise<TConsentState> => {
  const user = await requireUser(ctx, caller, userId);
  return stateOf(ctx, ctx.db, user.id, ctx.clock.now());
};

/** Every record of the user, a page at a time, each record's status read now. */
export const listConsentHistory = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  query: TListConsentHistoryQuery,
): Promise<{ items: TConsentRecord[]; pagination: TPagination }> => {
  const user = await requireUser(ctx, caller, userId);
  const now = ctx.clock.now();
  const page = await listConsentPage(ctx.db, user.id, query, cursorsOf(ctx));
  return { items: page.items.map((row) => toConsentRecord(ctx, row, now)), pagination: page.pagination };
};

/** Grants or renews: the new record becomes current (the previous one superseded) and the gate opens until its expiry. */
export const grantConsent = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  input: TGrantConsentInput,
  origin: RequestOrigin,
): Promise<TConsentState> => {
  const user = await requireUser(ctx, caller, userId);
  const now = ctx.clock.now();
  const consent = suppliedConsent(ctx, caller, user.id, input, origin, now, '');
  return writeUser(ctx, async (tx, touches) => {
    if (!(await lockUserForConsent(tx, user.id))) throw notFound('User');
    touches(userTag(user.id));
    await insertCurrentConsent(tx, consent);
    await countProgram(tx, { clientId: caller.clientId, metric: 'consented', at: now });
    const state = await stateOf(ctx, tx, user.id, now);
    await recordAudit(
      ctx,
      {
        type: 'consent.given',
        clientId: caller.clientId,
        actor: actorOf(caller.principal),
        userId: user.id,
        requestId: origin.requestId,
        subject: { consentId: consent.id, termsVersion: consent.termsVersion, method: consent.method },
      },
      tx,
    );
    return state;
  });
};

/**
 * Withdraws: the gate closes at once (no pull from now on, the monitoring job skips the user), `consent.withdrawn`
 * goes to the partner's webhooks through the outbox, in the same transaction. What we hold is kept (see
 * docs/partner/consent.md). Without an open consent nothing changes and no event is sent.
 */
export const withdrawConsent = async (
  ctx: AppContext,
  caller: Caller,
  userId: string,
  origin: RequestOrigin,
): Promise<TConsentState> => {
  const user = await requireUser(ctx, caller, userId);
  const now = ctx.clock.now();
  return writeUser(ctx, async (tx, touches) => {
    if (!(await lockUserForConsent(tx, user.id))) throw notFound('User');
    touches(userTag(user.id));
    const withdrawn = await withdrawOpenConsent(tx, user.id, now);
    const state = await stateOf(ctx, tx, user.id, now);
    if (withdrawn) {
      await recordEvent(tx, ctx.ids, {
        clientId: caller.clientId,
        type: 'consent.withdrawn',
        data: {
          userId: user.id,
          externalUserId: user.external_user_id,
          consentId: withdrawn.id,
          withdrawnAt: now.toISOString(),
        },
        createdAt: now,
      });
      await recordAudit(
        ctx,
        {
          type: 'consent.withdrawn',
          clientId: caller.clientId,
          actor: actorOf(caller.principal),
          userId: user.id,
          requestId: origin.requestId,
          subject: { consentId: withdrawn.id, termsVersion: withdrawn.terms_version },
        },
        tx,
      );
    }
    return state;
  });
};

/**
 * On start: terms published with CONSENT_TERMS_REQUIRE_RECONSENT supersede every open consent under another version,
 * so those users pause until they accept the new text. Every instance may run it; the second finds nothing to do.
 */
export const applyTermsVersion = async (ctx: AppContext): Promise<number> => {
  if (!ctx.config.CONSENT_TERMS_REQUIRE_RECONSENT) return 0;
  return writeUser(ctx, async (tx, touches) => {
    const closed = await supersedeOtherTermsVersions(tx, ctx.config.CONSENT_TERMS_VERSION, ctx.clock.now());
    if (closed > 0) touches('*');
    return closed;
  });
};
