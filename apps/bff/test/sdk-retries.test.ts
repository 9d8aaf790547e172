import { CreditConnectionError, isCreditApiError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { sdkEnrollment } from './helpers/sdk-enrollment.ts';
import { errorEnvelope, type ProxyStep, type ScriptedProxy, startScriptedProxy } from './helpers/sdk-proxy.ts';

let app: TestApp;
let client: TestClient;
const proxies: ScriptedProxy[] = [];

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await app.close();
});

/** The SDK behind a proxy playing `script`, with a sleep that records each wait instead of waiting. */
const behind = async (script: ProxyStep[], options: Parameters<TestApp['sdk']>[1] = {}) => {
  const proxy = await startScriptedProxy(app.url, script);
  proxies.push(proxy);
  const waits: number[] = [];
  const sdk = app.sdk(client, {
    baseUrl: proxy.url,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { sdk, proxy, waits };
};

const rateLimited = (retryAfter: string) => ({
  status: 429,
  headers: { 'retry-after': retryAfter },
  body: errorEnvelope('RATE_LIMIT_EXCEEDED', 'Too many requests', { retryAfter: Number(retryAfter) }),
});
const unavailable = (headers: Record<string, string> = {}) => ({
  status: 503,
  headers,
  body: errorEnvelope('SERVICE_UNAVAILABLE', 'The bureau is unavailable'),
});

const countUsers = async (externalUserId: string) =>
  (await app.db.query<{ n: number }>('select count(*)::int as n from users where external_user_id = $1', [externalUserId]))
    .rows[0]?.n;

describe('SDK retries', () => {
  it('waits out a 429 for its Retry-After, then gets the real answer', async () => {
    const { sdk, proxy, waits } = await behind([rateLimited('3')]);
    const page = await sdk.call('listUsers');
    expect(page.pagination).toBeDefined();
    expect(waits).toEqual([3_000]);
    expect(proxy.seen).toHaveLength(2);
  });

  it('retries a 503 after its Retry-After date, and with backoff when it gives none', async () => {
    // An HTTP date counts whole seconds: start on one, so the wait is exactly two of them.
    app.clock.set(new Date(Math.ceil(app.clock.now().getTime() / 1000) * 1000));
    const inTwoSeconds = new Date(app.clock.now().getTime() + 2_000).toUTCString();
    const { sdk, waits } = await behind([unavailable({ 'retry-after': inTwoSeconds }), unavailable()], {
      retry: { initialDelayMs: 400 },
    });
    await sdk.call('listUsers');
    expect(waits).toEqual([2_000, 600]);
  });

  it('retries a POST that answered 429 with the same Idempotency-Key, and creates one user', async () => {
    const person = sdkEnrollment();
    const { sdk, proxy } = await behind([rateLimited('1'), unavailable()]);
    const user = await sdk.call('enrollUser', { body: person });
    const keys = proxy.seen.map((request) => request.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(user.externalUserId).toBe(person.externalUserId);
    expect(await countUsers(person.externalUserId)).toBe(1);
  });

  it('after a lost response, repeats an idempotent call with its key and gets the same user, not a second one', async () => {
    const person = sdkEnrollment();
    const { sdk, proxy } = await behind(['drop-response']);
    const response = await sdk.request('enrollUser', { body: person });
    expect(proxy.seen).toHaveLength(2);
    expect(proxy.seen[1]?.headers['idempotency-key']).toBe(proxy.seen[0]?.headers['idempotency-key']);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(await countUsers(person.externalUserId)).toBe(1);
    const [listed] = (await sdk.call('listUsers', { query: { externalUserId: person.externalUserId } })).data;
    expect(listed?.userId).toBe(response.body.data.userId);
  });

  it('uses the caller’s own Idempotency-Key across calls, so a repeated call replays', async () => {
    const { sdk, proxy } = await behind([]);
    const person = sdkEnrollment();
    const first = await sdk.call('enrollUser', { body: person, idempotencyKey: 'order-4711' });
    const second = await sdk.request('enrollUser', { body: person, idempotencyKey: 'order-4711' });
    expect(second.body.data.userId).toBe(first.userId);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(proxy.seen.map((request) => request.headers['idempotency-key'])).toEqual(['order-4711', 'order-4711']);
  });

  it('does not repeat a call that is not idempotent after a lost response', async () => {
    const { sdk: setup } = await behind([]);
    const { userId } = await setup.call('enrollUser', { body: sdkEnrollment() });
    const { sdk, proxy } = await behind(['drop-response']);
    const error = await sdk.call('deleteUser', { params: { userId } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CreditConnectionError);
    expect(proxy.seen).toHaveLength(1);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const { sdk, proxy, waits } = await behind([unavailable(), unavailable(), unavailable()], { maxRetries: 1 });
    const error = await sdk.call('listUsers').catch((e: unknown) => e);
    expect(isCreditApiError(error, 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(proxy.seen).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it('does not sit out a real 429 longer than its cap: the error carries retryAfter', async () => {
    const limited = await startTestApp({ config: { RATE_LIMIT_USER_OPS_PER_MIN: '1' } });
    try {
      const waits: number[] = [];
      const sdk = limited.sdk(await limited.createClient(), {
        retry: { maxRetryAfterMs: 0 },
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      await sdk.call('listUsers');
      const error = await sdk.call('listUsers').catch((e: unknown) => e);
      if (!isCreditApiError(error, 'RATE_LIMIT_EXCEEDED')) throw error;
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(0);
      expect(waits).toEqual([]);
    } finally {
      await limited.close();
    }
  });
});
