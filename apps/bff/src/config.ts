import path from 'node:path';
import { z } from 'zod';

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const atLeast30Days = z.coerce.number().int().min(30, 'must be at least 30 (days)').default(30);
const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `1m,5m,30m,2h,24h` → milliseconds; exactly five retries, as the spec's schedule has. */
export const parseRetrySchedule = (value: string): number[] | undefined => {
  const parts = value.split(',').map((part) => /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(part));
  if (parts.length !== 5 || parts.some((m) => !m)) return undefined;
  return parts.map((m) => Number(m?.[1]) * (UNIT_MS[m?.[2] ?? 's'] ?? 1000));
};

/** `cli_x=2, cli_y=0.5` → client id → weight (positive, at most 1,000); empty → none. */
export const parseClientWeights = (value: string): Map<string, number> | undefined => {
  const weights = new Map<string, number>();
  for (const part of value.split(',')) {
    if (!part.trim()) continue;
    const m = /^\s*(cli_\w+)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    const weight = Number(m?.[2]);
    if (!m?.[1] || !(weight > 0 && weight <= 1000)) return undefined;
    weights.set(m[1], weight);
  }
  return weights;
};

/** `30d`, `12h`, `90s`, `500ms` → milliseconds. */
const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, zctx) => {
      const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(value);
      const ms = m ? Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000) : 0;
      if (ms <= 0) zctx.addIssue({ code: 'custom', message: 'must be a duration such as 30d, 12h or 90s' });
      return ms;
    });

const optionalDuration = () =>
  z
    .string()
    .optional()
    .transform((value, zctx) => {
      if (value === undefined || value.trim() === '') return undefined;
      const m = /^\s*(\d+)\s*(ms|s|m|h|d)\s*$/.exec(value);
      const ms = m ? Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 1000) : 0;
      if (ms <= 0) zctx.addIssue({ code: 'custom', message: 'must be a duration such as 7d or 90s, or unset' });
      return ms > 0 ? ms : undefined;
    });

/** Every setting an instance reads, with its default. The README's configuration table mirrors this. */
export const ZConfig = z.object({
  APP_ENV: z.enum(['sandbox', 'production']).default('sandbox'),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Written into the OpenAPI document's `servers` and the sandbox's Apply links (see lib/public-url.ts).
  PUBLIC_URL: optionalText.refine((value) => value === undefined || /^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?$/.test(value), {
    message: 'must be an absolute http(s) URL such as https://api.bank.example',
  }),
  DATA_DIR: z.string().default(path.resolve(process.env.INIT_CWD ?? process.cwd(), '.data')),
  DATABASE_URL: optionalText,
  REDIS_URL: optionalText,
  /** A Redis command unanswered this long is given up: the rate limiter decides in memory instead. */
  REDIS_TIMEOUT_MS: positiveInt(200),
  /** api/all roles: HTTP server processes on one port (node:cluster). More than 1 needs DATABASE_URL. */
  API_PROCESSES: positiveInt(1),
  /**
   * Backstop lifetime of the in-process read cache (tokens, users, scores, credit files). Writes drop entries at once
   * on the writing instance and through NOTIFY on every other; 0 turns the cache off.
   */
  READ_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /** Entries per process, across every kind; the least recently used go first. */
  READ_CACHE_MAX_ENTRIES: positiveInt(50_000),
  /** And megabytes per process (estimated from each value's JSON size), whichever bound is reached first. */
  READ_CACHE_MAX_MB: positiveInt(64),
  TOKEN_SIGNING_KEY: optionalText,
  DATA_ENCRYPTION_KEY: optionalText,
  BOOTSTRAP_CLIENT_ID: optionalText,
  BOOTSTRAP_CLIENT_SECRET: optionalText,
  BOOTSTRAP_CLIENT_EMAIL: z.string().default('ops@example.test'),
  /** The bank's display name: the consent text and the widget show it to consumers. */
  BOOTSTRAP_CLIENT_NAME: optionalText,
  BOOTSTRAP_EMBED_ORIGINS: optionalText,
  RATE_LIMIT_AUTH_PER_MIN: positiveInt(100),
  RATE_LIMIT_BATCH_PER_MIN: positiveInt(50),
  RATE_LIMIT_USER_OPS_PER_MIN: positiveInt(1000),
  /** A customer's own requests a minute (user token or widget session), which also count in their client's window. */
  RATE_LIMIT_USER_TOKEN_PER_MIN: positiveInt(300),
  /** Failed client authentications a minute from one address for one client id (three times this for any). */
  RATE_LIMIT_AUTH_FAILURES_PER_MIN: positiveInt(10),
  TLS_CERT_FILE: optionalText,
  TLS_KEY_FILE: optionalText,
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  USER_PURGE_AFTER_DAYS: z.coerce.number().min(0).max(30).default(7),
  PURGE_INTERVAL_SECONDS: positiveInt(3600),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('1m,5m,30m,2h,24h')
    .transform((value, zctx) => {
      const delays = parseRetrySchedule(value);
      if (!delays) zctx.addIssue({ code: 'custom', message: 'must be five durations such as 1m,5m,30m,2h,24h' });
      return delays ?? [];
    }),
  WEBHOOK_CA_FILE: optionalText,
  WEBHOOK_POLL_INTERVAL_MS: positiveInt(250),
  WEBHOOK_TIMEOUT_MS: positiveInt(30_000),
  WEBHOOK_CONCURRENCY: positiveInt(128),
  /** Keep-alive connections the worker opens to one receiver origin, and so its deliveries in flight there at once. */
  WEBHOOK_CONNECTIONS_PER_ORIGIN: positiveInt(32),
  /**
   * Deliveries of one client in flight at once per worker, over all its receivers; unset: a quarter of
   * WEBHOOK_CONCURRENCY (at least 1), so one client's hanging receivers never hold every slot.
   */
  WEBHOOK_MAX_IN_FLIGHT_PER_CLIENT: z.coerce.number().int().positive().optional(),
  /**
   * Sandbox only (production never delivers to loopback): whether webhook receivers on this machine's loopback
   * (`http://localhost:4242`) are accepted and delivered to. A local-development setting: `pnpm start` turns it on;
   * off by default, so a sandbox shared by outside partners cannot be made to call services on its own host.
   */
  WEBHOOK_ALLOW_LOOPBACK_HTTP: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * Whether credit files are sealed deflated (format v2). Set `false` while instances of a release that reads only v1
   * still run (a rolling upgrade), so none of them is handed a file it cannot open; every release reads both.
   */
  SEAL_FILES_DEFLATED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
  /** The credit bureau's base URL (the JSON contract in bureau/http/contract.ts). Unset: sandbox uses its built-in bureau, production answers 503. */
  BUREAU_URL: optionalText.refine((value) => value === undefined || /^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?$/.test(value), {
    message: 'must be an absolute http(s) URL such as https://bureau.example/api',
  }),
  /** Sent as `X-Api-Key` on every bureau call. */
  BUREAU_API_KEY: optionalText,
  /** PEM files of the client certificate and key, for a bureau that authenticates by mutual TLS. */
  BUREAU_CLIENT_CERT: optionalText,
  BUREAU_CLIENT_KEY: optionalText,
  /** PEM file of a private CA that signed the bureau's certificate (added to the system CAs). */
  BUREAU_CA_FILE: optionalText,
  /** One attempt's limit (connect, answer, body), and also the longest wait for a slot under the cap. */
  BUREAU_TIMEOUT_MS: positiveInt(5_000),
  /** Attempts after the first on a 5xx/429, a timeout or a connection failure, with decorrelated-jitter backoff. */
  BUREAU_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** The backoff's first delay; later ones grow about twice as long each, at most 5 s. */
  BUREAU_RETRY_BASE_MS: positiveInt(200),
  /** Consecutive failed attempts that open the circuit breaker (calls then fail fast with 503). */
  BUREAU_BREAKER_THRESHOLD: positiveInt(5),
  /** How long the breaker stays open before letting one test call through. */
  BUREAU_BREAKER_HALF_OPEN_MS: positiveInt(30_000),
  /** Bureau calls (attempts) started per second, by all processes together when REDIS_URL is set. */
  BUREAU_MAX_PER_SECOND: positiveInt(50),
  /** `cli_x=2,cli_y=1`: a client's weight when the per-second cap is split between active clients (unlisted: 1). */
  BUREAU_CLIENT_WEIGHTS: z
    .string()
    .default('')
    .transform((value, zctx) => {
      const weights = parseClientWeights(value);
      if (!weights) zctx.addIssue({ code: 'custom', message: 'must be client=weight pairs such as cli_x=2,cli_y=1' });
      return weights ?? new Map<string, number>();
    }),
  /** The part of the per-second cap scheduled monitoring pulls keep while interactive calls want the rest. */
  BUREAU_MONITORING_SHARE: z.coerce.number().min(0).lt(1).default(0.3),
  /**
   * `true`: monitoring pulls holding a slot at the same moment leave in one `POST /v1/credit-files` (pnpm bureau serves
   * it; a bureau answering 404 there gets single pulls again). Off by default: a bureau gateway rarely has it.
   */
  BUREAU_BATCH_PULLS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** New identity-verification sessions (each one a bureau call) a user may start at a client per 24 h. */
  VERIFICATION_SESSIONS_PER_DAY: positiveInt(5),
  /** `pnpm bureau`: the port the sandbox bureau listens on (127.0.0.1). */
  BUREAU_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /**
   * Unset (production): each client's cadence, calendar months or weeks (modules/monitoring/cadence.ts). A duration
   * fixes every user's period to it instead, for tests and benchmarks that need short periods.
   */
  MONITORING_INTERVAL: optionalDuration(),
  /** How often an idle worker looks for users whose refresh is due. */
  MONITORING_POLL_INTERVAL_MS: positiveInt(1_000),
  /** How often a worker reads the bureau's trigger feed (with BUREAU_URL): a changed file is pulled within this. */
  TRIGGER_FEED_INTERVAL_MS: positiveInt(60_000),
  /**
   * Users a worker claims at a time, and how many of them it refreshes at once. Up to 50 in flight share one batched
   * bureau request (BUREAU_BATCH_PULLS); more in flight than a client's monitoring share starts in 20 s are refused
   * (docs/operator/monitoring.md).
   */
  MONITORING_BATCH_SIZE: positiveInt(200),
  MONITORING_CONCURRENCY: positiveInt(16),
  /**
   * Claimed batches a worker refreshes at once, sharing its MONITORING_CONCURRENCY: the next batch's pulls start while
   * the one before finishes its last pulls and commits, so the worker's slots do not idle at each batch's end. A batch
   * is claimed once every pull claimed before it has started (modules/monitoring/slots.ts).
   */
  MONITORING_BATCHES_IN_FLIGHT: positiveInt(2),
  /** Pulled periods committed in one transaction: fewer commits and round trips per customer. */
  MONITORING_COMMIT_GROUP: positiveInt(50),
  /** How long a claim lasts: a worker that dies holding users loses them to another worker after this. */
  MONITORING_LEASE_SECONDS: positiveInt(120),
  /** Waits before retrying a period whose pull failed (bureau down, breaker open), growing per failure. */
  MONITORING_RETRY_SCHEDULE: z
    .string()
    .default('1m,5m,30m,2h,6h')
    .transform((value, zctx) => {
      const delays = parseRetrySchedule(value);
      if (!delays) zctx.addIssue({ code: 'custom', message: 'must be five durations such as 1m,5m,30m,2h,6h' });
      return delays ?? [];
    }),
  /** Retention (src/retention, run with housekeeping): webhook deliveries and their attempt log, kept this many days. */
  // At least the 30 days recover and the events list reach back: recover tells a missed event by its missing
  // delivery row, and the list reads the outbox.
  WEBHOOK_LOG_RETENTION_DAYS: atLeast30Days,
  /** Outbox events, once every delivery of them is settled. */
  OUTBOX_RETENTION_DAYS: atLeast30Days,
  /** Alerts, and the keys that stop the same thing alerting twice. */
  ALERT_RETENTION_MONTHS: positiveInt(24),
  /** Audit trail entries (docs/operator/audit.md): pruned past this many years, replaced by a signed checkpoint. */
  AUDIT_RETENTION_YEARS: positiveInt(7),
  /** How soon spooled audit entries are chained into the hash chains (docs/operator/audit.md). */
  AUDIT_CHAIN_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(250),
  /** Consent (docs/partner/consent.md): the terms version a new consent is given under (its disclosure text's id). */
  CONSENT_TERMS_VERSION: z.string().trim().min(1).max(64).default('2026-11-25'),
  /** true: consents under any other version stop counting when an instance starts with this version (re-consent). */
  CONSENT_TERMS_REQUIRE_RECONSENT: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** How long a consent runs from when it was given; granting again renews it. The CFPB's 2024 proposal caps it at a year. */
  CONSENT_VALIDITY: duration('365d'),
  SMTP_URL: optionalText,
  DEMO_PORT: z
    .union([z.literal('off'), z.coerce.number().int().min(0).max(65535)])
    .default(3001)
    .meta({ description: 'Sandbox only: port of the demo partner page (`off` disables it).' }),
  DEMO_HOST: z.string().default('localhost'),
  SMTP_FROM: z.string().default('Credit API <no-reply@credit.example>'),
  /** Alert e-mails (docs/partner/alert-emails.md): waits before each of the five retries of an e-mail the mail server refused. */
  ALERT_EMAIL_RETRY_SCHEDULE: z
    .string()
    .default('1m,5m,30m,2h,6h')
    .transform((value, zctx) => {
      const delays = parseRetrySchedule(value);
      if (!delays) zctx.addIssue({ code: 'custom', message: 'must be five durations such as 1m,5m,30m,2h,6h' });
      return delays ?? [];
    }),
  /** How often an idle worker looks for alert e-mails to send. */
  ALERT_EMAIL_POLL_INTERVAL_MS: positiveInt(1_000),
  /** Alert e-mails a worker claims at a time, and how many of them it hands to the mail server at once. */
  ALERT_EMAIL_BATCH_SIZE: positiveInt(50),
  ALERT_EMAIL_CONCURRENCY: positiveInt(4),
  /** How long a claim lasts: a worker that dies holding e-mails loses them to another worker after this. */
  ALERT_EMAIL_LEASE_SECONDS: positiveInt(120),
  /** The mail server's limit for connecting, greeting and each silence within a hand-over. */
  ALERT_EMAIL_SMTP_TIMEOUT_MS: positiveInt(20_000),
});
export type Config = z.infer<typeof ZConfig>;

const isHttpsOrLoopback = (url: string) => {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(hostname);
};

/** Reads and checks the environment; a production instance refuses to start without its secrets. */
export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const parsed = ZConfig.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const config = parsed.data;
  if (config.APP_ENV === 'production') {
    const missing = (['DATABASE_URL', 'TOKEN_SIGNING_KEY', 'DATA_ENCRYPTION_KEY'] as const).filter((key) => !config[key]);
    if (missing.length > 0) throw new Error(`Production needs ${missing.join(', ')}; refusing to start`);
  }
  if (config.APP_ENV === 'production' && config.CONSENT_VALIDITY > 365 * 86_400_000) {
    // A consumer's instruction is renewed at least yearly (CFPB 2024 proposal; docs/partner/consent.md).
    throw new Error('In production CONSENT_VALIDITY must be at most 365d');
  }
  if (config.API_PROCESSES > 1 && !config.DATABASE_URL) {
    // PGlite is one process's embedded database: its data folder cannot be opened by several processes.
    throw new Error('API_PROCESSES above 1 needs DATABASE_URL (PostgreSQL)');
  }
  if (Boolean(config.BUREAU_CLIENT_CERT) !== Boolean(config.BUREAU_CLIENT_KEY)) {
    throw new Error('BUREAU_CLIENT_CERT and BUREAU_CLIENT_KEY must be set together');
  }
  if (config.BUREAU_URL && !config.BUREAU_API_KEY && !config.BUREAU_CLIENT_CERT) {
    throw new Error('BUREAU_URL needs BUREAU_API_KEY or BUREAU_CLIENT_CERT/BUREAU_CLIENT_KEY');
  }
  if (config.APP_ENV === 'production' && config.BUREAU_URL && !isHttpsOrLoopback(config.BUREAU_URL)) {
    // Identity fields travel in these calls: only a bureau on this machine may be reached without TLS.
    throw new Error('In production BUREAU_URL must be https:// (or http:// to 127.0.0.1 / localhost)');
  }
  if (config.ALERT_EMAIL_SMTP_TIMEOUT_MS * 3 >= config.ALERT_EMAIL_LEASE_SECONDS * 1000) {
    // A hand-over may wait out each of its three timeouts; the claim must outlast it, or another worker sends it too.
    throw new Error('ALERT_EMAIL_LEASE_SECONDS must be longer than three times ALERT_EMAIL_SMTP_TIMEOUT_MS');
  }
  if (Boolean(config.TLS_CERT_FILE) !== Boolean(config.TLS_KEY_FILE)) {
    throw new Error('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  return config;
};
