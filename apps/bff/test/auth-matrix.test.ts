import { ALL_OPERATIONS, type Operation, SCOPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/** The operations this build serves; the rest of the contract lands with later issues. */
const IMPLEMENTED_TAGS = new Set(['Users', 'Authentication']);
const bearerOperations = ALL_OPERATIONS.filter(
  (op): op is Operation & { auth: { kind: 'bearer' } } => IMPLEMENTED_TAGS.has(op.tag) && op.auth.kind === 'bearer',
);

let app: TestApp;
let client: TestClient;
let userId: string;
let userToken: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  const token = await app.token(client);
  userId = (await app.request('POST', '/v1/users/enroll', { token, body: enrollment() })).body.data.userId;
  userToken = await app.userToken(token, 'matrix-user');
});
afterAll(() => app.close());

const call = (op: Operation, headers: Record<string, string>) =>
  app.request(op.method.toUpperCase(), op.path.replace('{userId}', userId), {
    headers,
    ...(op.method === 'post' || op.method === 'patch' ? { body: {} } : {}),
  });

describe.each(bearerOperations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))('%s', (_name, op) => {
  it('answers 401 without a token, with a garbage token and with Basic credentials', async () => {
    for (const headers of [{}, { authorization: 'Bearer garbage' }, { authorization: 'Basic Zm9vOmJhcg==' }] as Record<
      string,
      string
    >[]) {
      const res = await call(op, headers);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
    }
  });

  it(`answers 403 to an access token without "${op.auth.scope}"`, async () => {
    const others = SCOPES.filter((s) => s !== op.auth.scope && s !== 'admin');
    const res = await call(op, { authorization: `Bearer ${await app.token(client, others.join(' '))}` });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('lets an admin token through the scope check', async () => {
    const res = await call(op, { authorization: `Bearer ${await app.token(client, 'admin')}` });
    expect(res.status).not.toBe(401);
    if (!op.auth.userTokenOnly) expect(res.status).not.toBe(403);
  });

  it(op.auth.userToken ? 'accepts a user token' : 'refuses a user token with 403', async () => {
    const res = await call(op, { authorization: `Bearer ${userToken}` });
    if (op.auth.userToken) {
      expect(res.status).not.toBe(401);
      expect(res.body?.error?.code).not.toBe('AUTHORIZATION_ERROR');
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    }
  });
});

it('covers every implemented bearer operation', () => {
  expect(bearerOperations.map((op) => op.operationId).sort()).toEqual(
    ['createUserToken', 'deleteUser', 'enrollUser', 'enrollUsersBatch', 'getMe', 'getUser', 'listUsers'].sort(),
  );
});
