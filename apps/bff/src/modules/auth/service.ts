import {
  externalUserIdOf,
  SCOPES,
  type Scope,
  type TTokenResponse,
  type TUserTokenRequest,
  type TUserTokenResponse,
} from '@credit/contract';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../../core/principal.ts';
import { ENVIRONMENT_TAG, userTokenRef } from '../../core/principal.ts';
import { realNow } from '../../lib/clock.ts';
import { randomToken } from '../../lib/ids.ts';
import { ipAllowed } from '../../security/ip-allowlist.ts';
import { actorOf, recordAudit } from '../audit/service.ts';
import { clientSecretMatches, findClient } from '../clients/service.ts';
import { insertToken } from './repo.ts';

export const TOKEN_LIFETIME_SECONDS = 3600;

/** An RFC 6749 §5.2 failure: the token route answers it as `{error, error_description}`. */
export class OAuthError extends Error {
  constructor(
    readonly code:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_grant'
      | 'unauthorized_client'
      | 'unsupported_grant_type'
      | 'invalid_scope',
    readonly description: string,
  ) {
    super(description);
  }
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const mintToken = (kind: 'at' | 'ut', ctx: AppContext) => `${kind}_${ENVIRONMENT_TAG[ctx.config.APP_ENV]}_${randomToken(40)}`;

/** Resolves the requested scopes: none → all of the client's; one it lacks → invalid_scope. */
const grantScopes = (requested: string | undefined, allowed: Scope[]): Scope[] => {
  if (requested === undefined || requested.trim() === '') return allowed;
  const asked = [...new Set(requested.trim().split(/\s+/))];
  const unknown = asked.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
  const lacking = asked.filter((s) => !allowed.includes(s as Scope) && !allowed.includes('admin'));
  if (lacking.length) throw new OAuthError('invalid_scope', `This client may not request: ${lacking.join(' ')}`);
  return asked as Scope[];
};

export const issueAccessToken = async (
  ctx: AppContext,
  credentials: ClientCredentials,
  requestedScope: string | undefined,
  ip: string | undefined,
  requestId?: string,
): Promise<TTokenResponse> => {
  const client = credentials.clientId.length <= 100 ? await findClient(ctx.db, credentials.clientId) : undefined;
  // The allowlist is decided first and answered like a wrong secret: a right secret from a wrong address must not
  // tell anyone it was right. The secret is still checked, so every failure costs the same time.
  const fromAllowedAddress = !client || ctx.config.APP_ENV !== 'production' || ipAllowed(client.ipAllowlist, ip);
  const secret = await clientSecretMatches(client, credentials.clientSecret, realNow(ctx.clock));
  if (!client || !fromAllowedAddress || !secret.matches || client.environment !== ctx.config.APP_ENV) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication failed. Check that your server sends this environment’s client id and its current ' +
        'secret (a rotated secret stops at the end of the overlap its rotation chose), and, in production, that it ' +
        'calls from an address on the client’s allowlist.',
    );
  }
  const scopes = grantScopes(requestedScope, client.scopes);
  const token = mintToken('at', ctx);
  const now = ctx.clock.now();
  // A token minted with the previous secret ends when that secret does, at the latest: none outlives its secret.
  const lifetimeMs = Math.min(
    TOKEN_LIFETIME_SECONDS * 1000,
    secret.previousUntil ? secret.previousUntil.getTime() - now.getTime() : Number.POSITIVE_INFINITY,
  );
  const expiresIn = Math.max(1, Math.floor(lifetimeMs / 1000));
  await insertToken(ctx.db, {
    hash: ctx.tokens.hash(token),
    clientId: client.id,
    kind: 'access',
    scopes,
    createdAt: now,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
  });
  const subject = {
    tokenKind: 'access',
    scopes: scopes.join(' '),
    ...(secret.previousUntil ? { secret: 'previous' } : {}),
  };
  await recordAudit(ctx, {
    type: 'token.minted',
    clientId: client.id,
    actor: { kind: 'client', id: client.id },
    requestId,
    subject,
  });
  return { access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') };
};

export const issueUserToken = async (ctx: AppContext, caller: Caller, input: TUserTokenRequest): Promise<TUserTokenResponse> => {
  const token = mintToken('ut', ctx);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000);
  const hash = ctx.tokens.hash(token);
  await insertToken(ctx.db, {
    hash,
    clientId: caller.clientId,
    kind: 'user',
    // At most what minted it: a client limited to `write` cannot read through its customers' tokens.
    scopes: caller.principal.kind === 'access' ? caller.principal.scopes : [],
    externalUserId: externalUserIdOf(input),
    claims: {
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
      ...(input.phone ? { phone: input.phone } : {}),
      ...(input.externalId ? { externalId: input.externalId } : {}),
    },
    createdAt: now,
    expiresAt,
  });
  // The token's reference (as its reads are recorded), never the partner's customer id: see Principal.tokenRef.
  const subject = {
    tokenKind: 'user',
    tokenRef: userTokenRef(hash),
    scopes: caller.principal.kind === 'access' ? caller.principal.scopes.join(' ') : '',
  };
  await recordAudit(ctx, { type: 'token.minted', clientId: caller.clientId, actor: actorOf(caller.principal), subject });
  return { userToken: token, expiresIn: TOKEN_LIFETIME_SECONDS, expiresAt: expiresAt.toISOString() };
};
