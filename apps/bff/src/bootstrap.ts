import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { httpBureauFromConfig } from './bureau/http/adapter.ts';
import type { BureauProvider } from './bureau/provider.ts';
import { SandboxBureau } from './bureau/sandbox/sandbox-bureau.ts';
import { applyInvalidationsFrom } from './cache/invalidation.ts';
import { ReadCache } from './cache/read-cache.ts';
import type { Config } from './config.ts';
import { type AppContext, createAppServices } from './context.ts';
import type { Db } from './db/db.ts';
import { migrate } from './db/migrate.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { type IdGenerator, randomIds } from './lib/ids.ts';
import { auditedBureau, chainSpooledEntries, operationAudit } from './modules/audit/service.ts';
import { createAuthService } from './modules/auth/token-resolver.ts';
import { applyTermsVersion } from './modules/users/consent.ts';
import { userClockOf } from './modules/users/service.ts';
import { pathResourceChecks } from './path-resources.ts';
import { DataCipher } from './security/encryption.ts';
import { loadInstanceKeys } from './security/instance-keys.ts';
import { RateLimits } from './security/rate-limits.ts';
import { TokenHasher } from './security/token-hasher.ts';

export interface ContextParts {
  config: Config;
  db: Db;
  logger: Logger;
  clock?: Clock;
  ids?: IdGenerator;
  redis?: Redis;
  bureau?: BureauProvider;
}

/** Migrates, loads the shared keys and wires the context every request and job uses. */
export const buildContext = async ({ config, db, logger, clock, ids, redis, bureau }: ContextParts): Promise<AppContext> => {
  await migrate(db);
  const keys = await loadInstanceKeys(db, config);
  const tokens = new TokenHasher(keys.tokenSigning);
  const resolvedClock = clock ?? systemClock;
  const readCache = new ReadCache({
    ttlMs: config.READ_CACHE_TTL_MS,
    maxEntries: config.READ_CACHE_MAX_ENTRIES,
    maxBytes: config.READ_CACHE_MAX_MB * 1024 * 1024,
    clock: resolvedClock,
  });
  await applyInvalidationsFrom(db, readCache, logger);
  const ctx: AppContext = {
    config,
    db,
    logger,
    clock: resolvedClock,
    ids: ids ?? randomIds,
    cipher: new DataCipher(keys.dataEncryption, { deflate: config.SEAL_FILES_DEFLATED }),
    tokens,
    readCache,
    auth: createAuthService({ config, db, clock: resolvedClock, tokens, readCache }),
    rateLimits: RateLimits.fromConfig(config, redis),
    services: createAppServices(),
    // BUREAU_URL wins in any environment (the HTTP adapter); otherwise the sandbox's built-in bureau. Production never
    // falls back to synthetic data: without BUREAU_URL, credit reads answer 503.
    bureau:
      bureau ??
      httpBureauFromConfig(config, logger, resolvedClock, redis) ??
      (config.APP_ENV === 'sandbox' ? new SandboxBureau() : undefined),
  };
  // The audit trail: reads recorded by the dispatcher, every bureau pull by the provider itself (modules/audit).
  ctx.audit = operationAudit(ctx);
  ctx.pathResources = pathResourceChecks(ctx);
  // Test clocks are the sandbox's: in production no request looks one up.
  if (config.APP_ENV !== 'production') ctx.userClocks = (caller, userId) => userClockOf(ctx, caller, userId);
  // Entries a killed process left in the audit spool join their chains before this one serves (modules/audit).
  await chainSpooledEntries(ctx);
  if (ctx.bureau) ctx.bureau = auditedBureau(ctx, ctx.bureau);
  // Terms published requiring re-consent: consents under older versions stop counting (modules/users/consent.ts).
  await applyTermsVersion(ctx);
  return ctx;
};

export const connectRedis = (
  url: string,
  logger: Logger,
  commandTimeoutMs = 200,
  options: { autoPipelining?: boolean } = {},
): Redis => {
  // No offline queue and a short command timeout: a request never waits on a Redis that is down or stalled.
  // Auto-pipelining sends the commands of one tick in one write: a worker's batch of bureau pulls takes its cap slots
  // together. An API process keeps one write per command, so a stalled Redis costs a request one command timeout
  // (security/rate-limits.ts) rather than a queued pipeline's.
  const redis = new Redis(url, {
    enableAutoPipelining: options.autoPipelining ?? false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
  });
  // While Redis is down the rate limiter falls back to per-process memory; say so once per outage.
  let warned = false;
  redis.on('error', (error) => {
    if (!warned) logger.warn({ err: error }, 'redis unavailable; rate limits are per process until it returns');
    warned = true;
  });
  redis.on('ready', () => {
    warned = false;
  });
  return redis;
};
