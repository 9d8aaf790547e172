import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  app = await startTestApp();
  tokenA = await app.token(await app.createClient());
  tokenB = await app.token(await app.createClient());
});
afterAll(() => app.close());

describe('tenant isolation', () => {
  it('client B never sees, deletes or collides with client A’s users', async () => {
    const input = enrollment();
    const a = await app.request('POST', '/v1/users/enroll', { token: tokenA, body: input });
    const userId = a.body.data.userId;

    const get = await app.request('GET', `/v1/users/${userId}`, { token: tokenB });
    expect(get.status).toBe(404);
    const del = await app.request('DELETE', `/v1/users/${userId}`, { token: tokenB });
    expect(del.status).toBe(404);
    const list = await app.request('GET', `/v1/users?externalUserId=${input.externalUserId}`, { token: tokenB });
    expect(list.body).toMatchObject({ data: [], pagination: { total: 0 } });
    expect((await app.request('GET', '/v1/users', { token: tokenB })).body.pagination.total).toBe(0);

    const sameExternalId = await app.request('POST', '/v1/users/enroll', { token: tokenB, body: input });
    expect(sameExternalId.status).toBe(201);
    expect(sameExternalId.body.data.userId).not.toBe(userId);
    expect((await app.request('GET', `/v1/users/${userId}`, { token: tokenA })).status).toBe(200);
  });

  it('a user token of client B cannot reach client A’s user with the same external id', async () => {
    const input = enrollment();
    const a = await app.request('POST', '/v1/users/enroll', { token: tokenA, body: input });
    const utB = await app.userToken(tokenB, input.externalUserId);
    expect((await app.request('GET', `/v1/users/${a.body.data.userId}`, { token: utB })).status).toBe(404);
    expect((await app.request('GET', '/v1/me', { token: utB })).body.error.code).toBe('USER_NOT_ENROLLED');
  });
});
