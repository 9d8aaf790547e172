import type { Scope } from '@credit/contract';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { findTokenByHashes, type UserTokenClaims } from '../modules/auth/repo.ts';
import type { ClientRecord } from '../modules/clients/repo.ts';
import { readWidgetSession } from './widget-session-cookie.ts';

export type Principal =
  | { kind: 'access'; client: ClientRecord; scopes: Scope[] }
  | {
      kind: 'user';
      client: ClientRecord;
      externalUserId: string;
      claims: UserTokenClaims;
      expiresAt: Date;
      /** How the token arrived: as a bearer token, or inside the widget session cookie. */
      via: 'bearer' | 'widget-session';
    };

export const ENVIRONMENT_TAG = { sandbox: 'sbx', production: 'live' } as const;

const TOKEN_SHAPE = /^(at|ut)_(sbx|live)_[A-Za-z0-9]{20,80}$/;

type Resolution = { principal: Principal; token: string } | { failure: string };

/** Looks a presented token up: shape, environment, then the stored hash, revocation and expiry. */
const resolveToken = async (ctx: AppContext, token: string): Promise<Resolution> => {
  const shape = TOKEN_SHAPE.exec(token);
  if (!shape) return { failure: 'The bearer token is malformed.' };
  if (shape[2] !== ENVIRONMENT_TAG[ctx.config.APP_ENV]) {
    return {
      failure: `This is a ${shape[2] === 'sbx' ? 'sandbox' : 'production'} token; this is the ${ctx.config.APP_ENV} environment.`,
    };
  }
  const stored = await findTokenByHashes(ctx.db, ctx.tokens.candidates(token));
  if (!stored || stored.client.environment !== ctx.config.APP_ENV) return { failure: 'The bearer token is not valid.' };
  if (stored.revokedAt) return { failure: 'The bearer token has been revoked.' };
  if (stored.expiresAt.getTime() <= ctx.clock.now().getTime())
    return { failure: 'The bearer token has expired; obtain a new one.' };
  if (stored.kind === 'user' && stored.externalUserId && stored.claims) {
    return {
      token,
      principal: {
        kind: 'user',
        client: stored.client,
        externalUserId: stored.externalUserId,
        claims: stored.claims,
        expiresAt: stored.expiresAt,
        via: 'bearer',
      },
    };
  }
  return { token, principal: { kind: 'access', client: stored.client, scopes: stored.scopes } };
};

/**
 * Resolves `Authorization: Bearer …`, or else the widget session cookie, into a principal, or records
 * why it was refused. It never rejects by itself: the rate limiter runs next, and each route decides what it needs.
 */
export const resolvePrincipal =
  (ctx: AppContext): RequestHandler =>
  async (req, _res, next) => {
    const header = req.get('authorization');
    let resolution: Resolution | undefined;
    if (header && /^bearer /i.test(header)) {
      resolution = await resolveToken(ctx, header.slice(7).trim());
    } else if (!header) {
      const session = readWidgetSession(ctx, req);
      if (session && 'failure' in session) resolution = session;
      else if (session) {
        const resolved = await resolveToken(ctx, session.token);
        resolution =
          'principal' in resolved && resolved.principal.kind === 'user'
            ? { token: resolved.token, principal: { ...resolved.principal, via: 'widget-session' } }
            : { failure: 'The widget session has ended; start a new one with a fresh user token.' };
      }
    }
    if (resolution && 'failure' in resolution) req.authFailure = resolution.failure;
    else if (resolution) {
      req.principal = resolution.principal;
      req.presentedToken = resolution.token;
    }
    next();
  };

/** `admin` implies every scope. */
export const hasScope = (scopes: readonly Scope[], needed: Scope): boolean => scopes.includes('admin') || scopes.includes(needed);
