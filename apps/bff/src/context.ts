import type { TVerificationSession } from '@credit/contract';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { BureauProvider } from './bureau/provider.ts';
import type { ReadCache } from './cache/read-cache.ts';
import type { Config } from './config.ts';
import type { AuditTrail } from './core/audit-trail.ts';
import type { AuthService } from './core/auth-service.ts';
import type { PathResourceChecks } from './core/path-resources.ts';
import type { OnBehalfOf, UserClockLookup } from './core/request-scope.ts';
import type { Db } from './db/db.ts';
import type { Clock } from './lib/clock.ts';
import type { IdGenerator } from './lib/ids.ts';
import type { AuditSpool } from './modules/audit/spool.ts';
import type { RunLanes } from './modules/audit/verify-queue.ts';
import type { EventArrivals } from './modules/events/arrivals.ts';
import type { Deliverer } from './modules/webhooks/deliver.ts';
import type { DataCipher } from './security/encryption.ts';
import type { RateLimits } from './security/rate-limits.ts';
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
  /** Sandbox: the test clock of the user a route's path names, which that request reads as now (modules/users). */
  userClocks?: UserClockLookup;
  /** What this app keeps in memory for its own work; a derived context (a request's clock) shares it. */
  services: AppServices;
  /**
   * The API request this context's work serves (a RequestScope's `ctx`), which the audit entries it records name; none
   * on the app's own context and a job's (core/request-scope.ts).
   */
  readonly onBehalfOf?: OnBehalfOf;
}

/**
 * The in-memory services and state of one app, made with its context: a second app in the same process (a test's, a
 * bench's) has its own, so two apps share nothing by accident. Each field belongs to the module named.
 */
export interface AppServices {
  /** modules/audit: the spool that batches reads and bureau pulls into the trail (set by operationAudit). */
  auditSpool: AuditSpool | undefined;
  /** modules/audit: one verification, and one chaining pass, per key at a time. */
  auditRuns: RunLanes;
  /** modules/events: the outbox listener that wakes held long polls, opened by the first. */
  eventArrivals: EventArrivals | undefined;
  /** modules/webhooks: the keep-alive agent of the deliveries a partner asks for through the API. */
  webhookDeliverer: Deliverer | undefined;
  /** modules/verification: session starts under way, by client and user, shared by concurrent requests. */
  verificationStarts: Map<string, Promise<TVerificationSession>>;
  /** modules/offers: sandbox clients known to have their sample catalogue, so a warm read asks the database nothing. */
  offerSamplesGiven: Set<string>;
  /** modules/offers: the user id after which the next offer-profile backfill batch starts. */
  offerBackfillAfter: string;
  /** modules/offers: each client's audience previews, run one at a time (`tail` settles when the last one has). */
  audiencePreviews: Map<string, { tail: Promise<unknown>; waiting: number }>;
  /** modules/program: customers already counted as looking today (`userId|day`); a miss only asks the database. */
  programLooksCounted: LRUCache<string, true>;
}

export const createAppServices = (): AppServices => ({
  auditSpool: undefined,
  auditRuns: new Map(),
  eventArrivals: undefined,
  webhookDeliverer: undefined,
  verificationStarts: new Map(),
  offerSamplesGiven: new Set(),
  offerBackfillAfter: '',
  audiencePreviews: new Map(),
  programLooksCounted: new LRUCache<string, true>({ max: 100_000 }),
});
