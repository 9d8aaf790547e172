import type { Scope } from '@credit/contract';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { findTokenByHashes, type UserTokenClaims } from '../modules/auth/repo.ts';
import type { ClientRecord } from '../modules/clients/repo.ts';

export type Principal =
  | { kind: 'access'; client: ClientRecord; scopes: Scope[] }
  | { kind: 'user'; client: ClientRecord; externalUserId: string; claims: UserTokenClaims };

export const ENVIRONMENT_TAG = { sandbox: 'sbx', production: 'live' } as const;

const TOKEN_SHAPE = /^(at|ut)_(sbx|live)_[A-Za-z0-9]{20,80}$/;

/**
 * Resolves `Authorization: Bearer …` into a principal, or records why it was refused.
 * It never rejects by itself: the rate limiter runs next, and each route decides what it needs.
 */
export const resolvePrincipal =
  (ctx: AppContext): RequestHandler =>
  async (req, _res, next) => {
    const header = req.get('authorization');
    if (!header || !/^bearer /i.test(header)) return next();
    const token = header.slice(7).trim();
    const shape = TOKEN_SHAPE.exec(token);
    if (!shape) {
      req.authFailure = 'The bearer token is malformed.';
      return next();
    }
    if (shape[2] !== ENVIRONMENT_TAG[ctx.config.APP_ENV]) {
      req.authFailure = `This is a ${shape[2] === 'sbx' ? 'sandbox' : 'production'} token; this is the ${ctx.config.APP_ENV} environment.`;
      return next();
    }
    const stored = await findTokenByHashes(ctx.db, ctx.tokens.candidates(token));
    if (!stored || stored.client.environment !== ctx.config.APP_ENV) {
      req.authFailure = 'The bearer token is not valid.';
    } else if (stored.revokedAt) {
      req.authFailure = 'The bearer token has been revoked.';
    } else if (stored.expiresAt.getTime() <= ctx.clock.now().getTime()) {
      req.authFailure = 'The bearer token has expired; obtain a new one.';
    } else if (stored.kind === 'user' && stored.externalUserId && stored.claims) {
      req.principal = { kind: 'user', client: stored.client, externalUserId: stored.externalUserId, claims: stored.claims };
    } else {
      req.principal = { kind: 'access', client: stored.client, scopes: stored.scopes };
    }
    next();
  };

/** `admin` implies every scope. */
export const hasScope = (scopes: readonly Scope[], needed: Scope): boolean => scopes.includes('admin') || scopes.includes(needed);
