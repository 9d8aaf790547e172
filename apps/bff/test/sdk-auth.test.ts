import { createAccessToken } from '@credit/contract';
import { bearerAuth, CreditClient, CreditOAuthError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeClientTokens } from '../src/modules/clients/service.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { sdkEnrollment } from './helpers/sdk-enrollment.ts';

let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
});
afterAll(() => app.close());

/** The real fetch, with a tally of what it sent and what came back. */
const countingFetch = () => {
  const tally = { tokenRequests: 0, unauthorized: 0, requests: 0 };
  const fetchAndCount: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname === createAccessToken.path) tally.tokenRequests += 1;
    else tally.requests += 1;
    const response = await fetch(input, init);
    if (response.status === 401) tally.unauthorized += 1;
    return response;
  };
  return { tally, fetch: fetchAndCount };
};

describe('SDK access tokens', () => {
  it('makes one token request for many concurrent first calls, then reuses the token', async () => {
    const { tally, fetch } = countingFetch();
    const sdk = app.sdk(client, { fetch });
    const pages = await Promise.all(Array.from({ length: 8 }, () => sdk.call('listUsers', { query: { limit: 1 } })));
    expect(pages.every((page) => Array.isArray(page.data))).toBe(true);
    await sdk.call('listUsers');
    expect(tally).toEqual({ tokenRequests: 1, unauthorized: 0, requests: 9 });
  });

  it('renews the token shortly before it expires, without ever sending a dead one', async () => {
    const { tally, fetch } = countingFetch();
    const sdk = app.sdk(client, { fetch });
    const first = await sdk.accessToken();
    app.clock.advance(3_500 * 1000);
    await sdk.call('listUsers');
    expect(await sdk.accessToken()).toBe(first);
    app.clock.advance(45 * 1000);
    await sdk.call('listUsers');
    const second = await sdk.accessToken();
    expect(second).not.toBe(first);
    expect(tally).toMatchObject({ tokenRequests: 2, unauthorized: 0 });
    // The old token was still valid when it was replaced: the renewal came before expiry, not after a 401.
    expect((await app.request('GET', '/v1/users', { token: first })).status).toBe(200);
  });

  it('after a 401 for a revoked token, renews once and repeats the call', async () => {
    const { tally, fetch } = countingFetch();
    const sdk = app.sdk(client, { fetch });
    const user = await sdk.call('enrollUser', { body: sdkEnrollment() });
    await revokeClientTokens(app.db, client.id, app.clock.now());
    await app.invalidationsArrived();
    const again = await sdk.call('getUser', { params: { userId: user.userId } });
    expect(again.userId).toBe(user.userId);
    expect(tally).toMatchObject({ tokenRequests: 2, unauthorized: 1 });
  });

  it('after a 401 for a token the server saw expire (clocks apart), renews once and repeats the call', async () => {
    const { tally, fetch } = countingFetch();
    // Its own clock stands still while the server's runs two hours ahead.
    const sdk = app.sdk(client, { fetch, now: () => 0 });
    await sdk.call('listUsers');
    app.clock.advance(2 * 3600 * 1000);
    await sdk.call('listUsers');
    expect(tally).toMatchObject({ tokenRequests: 2, unauthorized: 1, requests: 3 });
  });

  it('reports refused credentials as the OAuth error, without retrying them', async () => {
    const { tally, fetch } = countingFetch();
    const sdk = app.sdk({ id: client.id, secret: 'sk_test_not_the_secret_0123456789' }, { fetch });
    const error = await sdk.call('listUsers').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CreditOAuthError);
    expect(error).toMatchObject({ code: 'invalid_client', status: 401 });
    expect(tally).toEqual({ tokenRequests: 1, unauthorized: 1, requests: 0 });
  });

  it('mints a user token that works as a bearer token for its own user', async () => {
    const sdk = app.sdk(client);
    const input = sdkEnrollment();
    const enrolled = await sdk.call('enrollUser', { body: input });
    const minted = await sdk.mintUserToken({
      externalUserId: input.externalUserId,
      email: input.email,
      firstName: input.firstName,
      lastName: input.lastName,
    });
    expect(minted.userToken).toMatch(/^ut_/);
    expect(minted.expiresIn).toBe(3600);
    const asUser = new CreditClient({ baseUrl: app.url, auth: bearerAuth(() => minted.userToken) });
    const me = await asUser.call('getMe');
    expect(me).toMatchObject({ userId: enrolled.userId });
  });

  it('mintUserToken still takes the deprecated userId, and refuses it beside a different externalUserId', async () => {
    const sdk = app.sdk(client);
    const input = sdkEnrollment();
    const enrolled = await sdk.call('enrollUser', { body: input });
    const claims = { email: input.email, firstName: input.firstName, lastName: input.lastName };
    const minted = await sdk.mintUserToken({ userId: input.externalUserId, ...claims });
    const asUser = new CreditClient({ baseUrl: app.url, auth: bearerAuth(() => minted.userToken) });
    expect(await asUser.call('getMe')).toMatchObject({ userId: enrolled.userId });
    await expect(sdk.mintUserToken({ externalUserId: input.externalUserId, userId: 'someone-else', ...claims })).rejects.toThrow(
      /^mintUserToken: externalUserId \(".+"\) and userId \("someone-else"\) differ; userId is the deprecated name/,
    );
  });
});
