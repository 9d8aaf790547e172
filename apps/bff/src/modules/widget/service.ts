import type { TWidgetSession } from '@credit/contract';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../core/api-error.ts';
import { type Caller, tokenUser } from '../../core/principal.ts';
import { type SealedWidgetSession, sealWidgetSession } from '../../security/widget-session.ts';
import { isEmbedOriginOfAnyClient, originAllowed } from '../clients/service.ts';
import { periodDays } from '../monitoring/service.ts';
import { getMe, recordWidgetLocale } from '../users/service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The enrolled user's id, or `null` while the token's user has not enrolled. */
const enrolledUserId = async (ctx: AppContext, caller: Caller): Promise<string | null> => {
  try {
    return (await getMe(ctx, caller)).userId;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'USER_NOT_ENROLLED') return null;
    throw error;
  }
};

/**
 * Exchanges the frame's user token for a sealed session (the routes hand it over as a cookie). The page embedding the frame must be one of
 * the token's own client's embed origins: `frame-ancestors` only proves *some* client allows it.
 */
export const createWidgetSession = async (
  ctx: AppContext,
  caller: Caller,
  presentedToken: string | undefined,
  parentOrigin: string | null,
  locale?: 'en' | 'es',
): Promise<{ session: TWidgetSession; sealed: SealedWidgetSession; expiresAt: Date }> => {
  const principal = tokenUser(caller);
  if (principal.via !== 'bearer' || !presentedToken) {
    throw new ApiError('AUTHENTICATION_ERROR', 'Send the user token as a bearer token to start a widget session.');
  }
  if (parentOrigin !== null && !originAllowed(principal.client.embedOrigins, parentOrigin)) {
    throw new ApiError(
      'AUTHORIZATION_ERROR',
      `Pages on ${parentOrigin} may not embed the widget for this client: add the origin to the client's embed origins.`,
      [{ field: 'parentOrigin', message: "is not one of the client's embed origins" }],
    );
  }
  const sealed = sealWidgetSession(ctx, presentedToken);
  const userId = await enrolledUserId(ctx, caller);
  // The language the customer reads the widget in is the language of their alert e-mails.
  if (userId && locale) await recordWidgetLocale(ctx, caller, userId, locale);
  return {
    sealed,
    expiresAt: principal.expiresAt,
    session: {
      csrfToken: sealed.csrfToken,
      expiresAt: principal.expiresAt.toISOString(),
      userId,
      // From the token's client, read by the server: the host page has no say in what the frame may tell it.
      disclosure: principal.client.widgetDisclosure,
      consentTerms: {
        termsVersion: ctx.config.CONSENT_TERMS_VERSION,
        validityDays: Math.round(ctx.config.CONSENT_VALIDITY / DAY_MS),
        refreshIntervalDays: periodDays({
          cadence: principal.client.monitoringCadence,
          fixedIntervalMs: ctx.config.MONITORING_INTERVAL,
        }),
        partnerName: principal.client.name,
      },
    },
  };
};

export const getWidgetSessionStatus = async (ctx: AppContext, caller: Caller) => ({
  userId: await enrolledUserId(ctx, caller),
  expiresAt: tokenUser(caller).expiresAt.toISOString(),
});

/** `frame-ancestors` for a frame request: the named parent if any client allows it, else nobody. */
export const frameAncestorsFor = async (ctx: AppContext, parent: unknown): Promise<string> => {
  if (typeof parent !== 'string' || parent.length > 255) return "'none'";
  let origin: string;
  try {
    origin = new URL(parent).origin;
  } catch {
    return "'none'";
  }
  if (origin !== parent) return "'none'";
  return (await isEmbedOriginOfAnyClient(ctx.db, ctx.config.APP_ENV, origin)) ? origin : "'none'";
};

/** How the widget's built files are served, shared with the console's (modules/console): hashed, precompressed, cached. */
export { assetFileFor, IMMUTABLE, isBuilt } from './static-files.ts';
