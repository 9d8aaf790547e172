import { Writable } from 'node:stream';
import type { Scope } from '@credit/contract';
import { type ClientCredentialsOptions, CreditClient } from '@credit/sdk';
import { createApp } from '../../src/app.ts';
import { buildContext, connectRedis } from '../../src/bootstrap.ts';
import type { BureauProvider } from '../../src/bureau/provider.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { AppContext } from '../../src/context.ts';
import type { Db } from '../../src/db/db.ts';
import { ManualClock } from '../../src/lib/clock.ts';
import { createLogger } from '../../src/logger.ts';
import { type CreateClientInput, createClient } from '../../src/modules/clients/service.ts';
import { listen, type RunningServer } from '../../src/server.ts';
import { invalidationsArrived } from './invalidations.ts';
import { assertMatchesOpenApi } from './openapi-check.ts';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (for malformed bodies); set the content type yourself. */
  rawBody?: string;
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

export const DEFAULT_SECRET = 'sk_test_secret_for_the_suite_0123456789';

export interface TestClient {
  id: string;
  secret: string;
}

export interface TestApp {
  url: string;
  ctx: AppContext;
  clock: ManualClock;
  db: Db;
  /** Log lines the app wrote, for assertions about what must never be logged. */
  logs: string[];
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  createClient(input?: Partial<CreateClientInput>): Promise<TestClient>;
  token(client: TestClient, scope?: string): Promise<string>;
  /** An access token still valid at the test clock's now, minted again once the clock has moved past half its life. */
  currentToken(client: TestClient): Promise<string>;
  userToken(accessToken: string, userId: string, extra?: Record<string, string>): Promise<string>;
  /** The SDK signed in as `client`, on this app's URL and clock (so token expiry follows `clock.advance`). */
  sdk(client: TestClient, options?: Partial<ClientCredentialsOptions>): CreditClient;
  /**
   * Resolves once this app has received every cache invalidation committed so far. A test that changes a client
   * straight through the database (as the operator's CLI does, from another process) waits here for the NOTIFY,
   * which is what another instance experiences: the stated bound, not "before the call returns".
   */
  invalidationsArrived(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The suite runs its webhook receivers on this machine, as a developer does with `pnpm start`. Its monitoring tests
 * step periods of a fixed 30 days; the calendar cadence of a real instance has its own tests (monitoring-calendar),
 * which pass `MONITORING_INTERVAL: ''`.
 */
export const testConfig = (overrides: Partial<Record<keyof Config, string>> = {}): Config =>
  loadConfig({
    LOG_LEVEL: 'info',
    DATA_DIR: '/nonexistent',
    WEBHOOK_ALLOW_LOOPBACK_HTTP: 'true',
    MONITORING_INTERVAL: '30d',
    ...overrides,
  } as Record<string, string>);

/** How a harness app starts: settings beside the suite's, and what it is given instead of the defaults. */
export interface AppOptions {
  config?: Partial<Record<keyof Config, string>>;
  /** Leave the database open when the app closes. */
  keepDb?: boolean;
  redis?: boolean;
  /** A bureau to use instead of the environment's (the sandbox bureau, or none in production). */
  bureau?: BureauProvider;
}

/**
 * The real app on a real port, over `db`, with a clock the caller controls; every response it receives is checked
 * against the OpenAPI document. Plain code, no test runner: the suite (harness.ts) and `pnpm bench:widget` start it.
 */
export const startAppOn = async (db: Db, options: AppOptions = {}): Promise<TestApp> => {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = testConfig({ PORT: '0', ...options.config });
  const clock = new ManualClock(new Date());
  const logger = createLogger(config.LOG_LEVEL, sink);
  const redis = options.redis && config.REDIS_URL ? connectRedis(config.REDIS_URL, logger) : undefined;
  const ctx = await buildContext({ config, db, logger, clock, redis, bureau: options.bureau });
  const server: RunningServer = await listen(createApp(ctx), config);
  // PORT=0: the address is known only now, and the sandbox's Apply links (lib/public-url.ts) must reach this server.
  config.PUBLIC_URL ??= server.url;

  const request = async <T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.body);
    }
    if (opts.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(opts.form).toString();
    }
    const response = await fetch(`${server.url}${path}`, { method, headers, body });
    const text = await response.text();
    const parsed = text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text || undefined;
    assertMatchesOpenApi(method, new URL(path, server.url).pathname, response.status, response.headers, parsed, config.APP_ENV);
    return { status: response.status, headers: response.headers, body: parsed as T };
  };

  let clientCount = 0;
  const minted = new Map<string, { token: string; at: number }>();
  const app: TestApp = {
    url: server.url,
    ctx,
    clock,
    db,
    logs,
    request,
    async createClient(input = {}) {
      clientCount += 1;
      const { client, secret } = await createClient(db, clock, config.APP_ENV, {
        name: `Test bank ${clientCount}`,
        contactEmail: 'ops@bank.test',
        secret: DEFAULT_SECRET,
        ...input,
      });
      return { id: client.id, secret };
    },
    async token(client, scope) {
      const res = await request('POST', '/oauth/token', {
        form: {
          grant_type: 'client_credentials',
          client_id: client.id,
          client_secret: client.secret,
          ...(scope ? { scope } : {}),
        },
      });
      if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.access_token as string;
    },
    async currentToken(client) {
      const known = minted.get(client.id);
      const now = clock.now().getTime();
      if (known && now >= known.at && now - known.at < 30 * 60_000) return known.token;
      const token = await app.token(client);
      minted.set(client.id, { token, at: now });
      return token;
    },
    async userToken(accessToken, userId, extra = {}) {
      const res = await request('POST', '/v1/auth/user-token', {
        token: accessToken,
        body: { userId, email: `${userId}@example.test`, firstName: 'Jane', lastName: 'Doe', ...extra },
      });
      if (res.status !== 201) throw new Error(`user token failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.userToken as string;
    },
    sdk(client, options = {}) {
      return new CreditClient({
        baseUrl: server.url,
        clientId: client.id,
        clientSecret: client.secret,
        now: () => clock.now().getTime(),
        ...options,
      });
    },
    invalidationsArrived: () => invalidationsArrived(db, ctx.readCache),
    async close() {
      await server.close();
      redis?.disconnect();
      if (!options.keepDb) await db.close();
    },
  };
  return app;
};

export const ALL_SCOPES: Scope[] = ['read', 'write', 'offers', 'webhooks', 'admin'];
