import { LRUCache } from 'lru-cache';
import { clientTag, type ReadCache } from '../../cache/read-cache.ts';
import type { Config } from '../../config.ts';
import type { AuthService, TokenResolution } from '../../core/auth-service.ts';
import { ENVIRONMENT_TAG, userTokenRef } from '../../core/principal.ts';
import type { Db } from '../../db/db.ts';
import type { Clock } from '../../lib/clock.ts';
import type { TokenHasher } from '../../security/token-hasher.ts';
import { CLIENT_SECRET_SHAPE, findClient } from '../clients/service.ts';
import { findTokenByHashes } from './repo.ts';

const TOKEN_SHAPE = /^(at|ut)_(sbx|live)_[A-Za-z0-9]{20,80}$/;

/**
 * What a caller does about a refused token, by its kind (the `at_`/`ut_` prefix, or the stored row): an access
 * token comes from the client credentials, a user token is minted by the partner's server for one customer.
 * These messages say only what the caller's own token already shows (its kind, its expiry), nothing about others.
 */
const REMEDY = {
  access: 'request a new access token with POST /oauth/token (grant_type=client_credentials; the SDK renews it for you)',
  user: 'mint a new user token for this customer from your server with POST /v1/auth/user-token',
} as const;

const unknownToken = (kind: 'access' | 'user') =>
  `The bearer token is not valid: this environment did not issue it (or it expired more than 7 days ago); ${REMEDY[kind]}.`;

const revokedToken = (kind: 'access' | 'user') =>
  `The ${kind} token has been revoked (its client's secret was rotated or reset); ${REMEDY[kind]}.`;

const expiredToken = (kind: 'access' | 'user', at: Date) => `The ${kind} token expired at ${at.toISOString()}; ${REMEDY[kind]}.`;

const MALFORMED =
  'The bearer token is malformed: send an access token (at_…) from POST /oauth/token, or a user token (ut_…) from POST /v1/auth/user-token.';

/** The secret itself is never echoed: the caller knows what they sent. */
const SECRET_AS_BEARER =
  'This looks like a client secret, not a token: exchange it at POST /oauth/token (grant_type=client_credentials, ' +
  'with your client id) for an access token and send that as the bearer token. Keep the secret on your server.';

interface ResolverParts {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: TokenHasher;
  readCache: ReadCache;
}

/**
 * A token's digests are a pure function of the token and the process's signing keys, and a caller sends the same
 * token for its hour, so the digests of recently seen
 * well-formed tokens are remembered: at most DIGEST_MEMO_SIZE of them, each for DIGEST_MEMO_TTL_MS at most, so a raw
 * token stays in this process's memory no longer than the request that carried it would keep it in a log buffer.
 * Validity is not remembered here: revocation, expiry and the client are still checked on every call.
 */
const DIGEST_MEMO_SIZE = 10_000;
const DIGEST_MEMO_TTL_MS = 5 * 60_000;

/** The HTTP layer's view of authentication (core/auth-service.ts), backed by the tokens and clients tables. */
export const createAuthService = ({ config, db, clock, tokens, readCache }: ResolverParts): AuthService => {
  // ttlAutopurge: an entry leaves when its time is up, not when it is next read, so a token seen once does not stay
  // in the heap (and in a heap dump) on a quiet instance.
  const digests = new LRUCache<string, string[]>({ max: DIGEST_MEMO_SIZE, ttl: DIGEST_MEMO_TTL_MS, ttlAutopurge: true });
  const digestsOf = (token: string): string[] => {
    let hashes = digests.get(token);
    if (!hashes) {
      hashes = tokens.candidates(token);
      digests.set(token, hashes);
    }
    return hashes;
  };
  return {
    findClient: (clientId) => findClient(db, clientId),
    async resolveToken(token): Promise<TokenResolution> {
      const shape = TOKEN_SHAPE.exec(token);
      if (!shape) return { failure: CLIENT_SECRET_SHAPE.test(token) ? SECRET_AS_BEARER : MALFORMED };
      if (shape[2] !== ENVIRONMENT_TAG[config.APP_ENV]) {
        return {
          failure: `This is a ${shape[2] === 'sbx' ? 'sandbox' : 'production'} token; this is the ${config.APP_ENV} environment.`,
        };
      }
      const hashes = digestsOf(token);
      // Revocation, expiry and the client are checked on every call below; the cache only saves the lookup, and
      // revoking, rotating the client's secret or changing the client drops it (tag client:<id>).
      const stored = await readCache.read(
        `token:${hashes[0]}`,
        () => findTokenByHashes(db, hashes),
        (found) => [clientTag(found.client.id)],
      );
      const kind = shape[1] === 'ut' ? 'user' : 'access';
      if (!stored || stored.client.environment !== config.APP_ENV) return { failure: unknownToken(kind) };
      if (stored.revokedAt) return { failure: revokedToken(stored.kind) };
      if (stored.expiresAt.getTime() <= clock.now().getTime()) return { failure: expiredToken(stored.kind, stored.expiresAt) };
      if (stored.kind === 'user' && stored.externalUserId && stored.claims) {
        return {
          token,
          principal: {
            kind: 'user',
            client: stored.client,
            // A token minted before user tokens carried scopes (none stored) has its client's.
            scopes: stored.scopes.length > 0 ? stored.scopes : stored.client.scopes,
            externalUserId: stored.externalUserId,
            tokenRef: userTokenRef(hashes[0] as string),
            claims: stored.claims,
            expiresAt: stored.expiresAt,
            via: 'bearer',
          },
        };
      }
      return { token, principal: { kind: 'access', client: stored.client, scopes: stored.scopes } };
    },
  };
};
