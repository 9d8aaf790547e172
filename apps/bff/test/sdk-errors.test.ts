import { CreditApiError, type CreditClient, CreditResponseValidationError, isCreditApiError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { sdkEnrollment } from './helpers/sdk-enrollment.ts';
import { type ScriptedProxy, startScriptedProxy } from './helpers/sdk-proxy.ts';

let app: TestApp;
let client: TestClient;
let sdk: CreditClient;
const proxies: ScriptedProxy[] = [];

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  sdk = app.sdk(client);
});
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await app.close();
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

describe('SDK errors', () => {
  it('throws a typed NOT_FOUND with status and the request id of the response', async () => {
    const error = await failure(sdk.call('getUser', { params: { userId: 'usr_doesnotexist00' } }));
    expect(error).toBeInstanceOf(CreditApiError);
    if (!isCreditApiError(error, 'NOT_FOUND')) throw error;
    expect(error.status).toBe(404);
    expect(error.operationId).toBe('getUser');
    expect(error.requestId).toMatch(/^req_/);
  });

  it('carries the field details of a VALIDATION_ERROR', async () => {
    const { ssn: _ssn, ...withoutSsn } = sdkEnrollment({ email: 'not-an-email' });
    // The types refuse this body; the server's answer to it is what is being checked.
    const error = await failure(sdk.call('enrollUser', { body: withoutSsn as never }));
    if (!isCreditApiError(error, 'VALIDATION_ERROR')) throw error;
    expect(error.status).toBe(400);
    expect(error.details.map((detail) => detail.field).sort()).toEqual(['email', 'ssn']);
  });

  it('tells one code from another: a second enrolment of the same person is USER_EXISTS', async () => {
    const person = sdkEnrollment();
    await sdk.call('enrollUser', { body: person });
    const error = await failure(sdk.call('enrollUser', { body: person }));
    expect(isCreditApiError(error, 'USER_EXISTS')).toBe(true);
    expect(isCreditApiError(error, 'NOT_FOUND')).toBe(false);
    expect(error).toMatchObject({ status: 409 });
  });

  it('checks success bodies against the contract when validation is on, and passes them through when off', async () => {
    const { userId } = await sdk.call('enrollUser', { body: sdkEnrollment() });
    const user = await sdk.call('getUser', { params: { userId } });
    const broken = { data: { ...user, status: 'sleeping' }, meta: { requestId: 'req_x', timestamp: new Date().toISOString() } };
    const proxy = await startScriptedProxy(app.url, [
      { status: 200, body: broken },
      { status: 200, body: broken },
    ]);
    proxies.push(proxy);
    const validating = app.sdk(client, { baseUrl: proxy.url, validateResponses: true });
    const error = await failure(validating.call('getUser', { params: { userId: user.userId } }));
    expect(error).toBeInstanceOf(CreditResponseValidationError);
    expect((error as CreditResponseValidationError).issues.map((issue) => issue.path.join('.'))).toEqual(['data.status']);
    const trusting = app.sdk(client, { baseUrl: proxy.url, validateResponses: false });
    expect((await trusting.call('getUser', { params: { userId: user.userId } })).status).toBe('sleeping');
  });
});
