import { ALL_OPERATIONS, type Operation, SCOPES } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

/** Every bearer route of the contract: the whole spec is served. */
const bearerOperations = ALL_OPERATIONS.filter((op): op is Operation & { auth: { kind: 'bearer' } } => op.auth.kind === 'bearer');

/** Well-formed ids for the other path parameters: the route must decide on auth before it looks them up. */
const PLACEHOLDER_IDS: Record<string, string> = {
  offerId: 'off_nwbCashBack001',
  alertId: 'alt_doesNotExist0001',
  webhookId: 'wh_doesNotExist0001',
};

let app: TestApp;
let client: TestClient;
let userId: string;
let userToken: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  const token = await app.token(client);
  // Active, so credit routes get past USER_NOT_ENROLLED and only the auth rules decide.
  userId = await enrolActiveUser(app, token);
  userToken = await app.userToken(token, 'matrix-user');
});
afterAll(() => app.close());

const call = (op: Operation, headers: Record<string, string>) =>
  app.request(
    op.method.toUpperCase(),
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'userId' ? userId : (PLACEHOLDER_IDS[name] ?? name))),
    {
      headers,
      ...(op.method === 'post' || op.method === 'patch' ? { body: {} } : {}),
    },
  );

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
    if (!op.auth.userTokenOnly) expect(res.body?.error?.code).not.toBe('AUTHORIZATION_ERROR');
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

it('covers every bearer operation of the spec', () => {
  expect(bearerOperations.length).toBe(ALL_OPERATIONS.filter((op) => op.auth.kind === 'bearer').length);
  expect(bearerOperations.map((op) => op.tag)).toEqual(
    expect.arrayContaining(['Users', 'Credit scores', 'Offers', 'Alerts', 'Identity verification', 'Sandbox', 'Webhooks']),
  );
});
