import type { Logger } from 'pino';
import type { BureauProvider } from './bureau/provider.ts';
import type { ReadCache } from './cache/read-cache.ts';
import type { Config } from './config.ts';
import type { AuditTrail } from './core/audit-trail.ts';
import type { AuthService } from './core/auth-service.ts';
import type { PathResourceChecks } from './core/path-resources.ts';
import type { Db } from './db/db.ts';
import type { RateLimits } from './http/rate-limit.ts';
import type { Clock } from './lib/clock.ts';
import type { IdGenerator } from './lib/ids.ts';
import type { DataCipher } from './security/encryption.ts';
import type { TokenHasher } from './security/token-hasher.ts';

/** Everything a request or job needs from the outside world, built once in main.ts (or a test). */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  cipher: DataCipher;
  tokens: TokenHasher;
  rateLimits: RateLimits;
  /** Tokens, users, scores and credit files of the hot read path; writes drop what they touch (cache/invalidation.ts). */
  readCache: ReadCache;
  /** Token and client lookups for the HTTP layer (implemented by modules/auth). */
  auth: AuthService;
  /** Where credit files come from; absent in production until a real bureau adapter is configured. */
  bureau?: BureauProvider;
  /** Records reads of credit and personal data before they are answered (modules/audit). */
  audit?: AuditTrail;
  /** Whether the caller may see what a path parameter names, for a 404 before any 400 (path-resources.ts). */
  pathResources?: PathResourceChecks;
}
