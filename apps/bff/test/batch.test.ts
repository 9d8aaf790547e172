import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const batch = (users: unknown[]) => app.request('POST', '/v1/users/enroll/batch', { token, body: { users } });

describe('POST /v1/users/enroll/batch', () => {
  it('enrols each item on its own and reports successes, failures and counts (200)', async () => {
    const existing = enrollment();
    await app.request('POST', '/v1/users/enroll', { token, body: existing });
    const good = enrollment();
    const twin = enrollment();
    const res = await batch([good, existing, enrollment({ ssn: 'abcd' }), twin, { ...twin }, 'not an object']);
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 6, successful: 2, failed: 4, requestId: expect.any(String) });
    // Sandbox items without `consent` are recorded with the sandbox default, and each success says so.
    const sandboxDefault = expect.objectContaining({ consentId: expect.stringMatching(/^cns_/), method: 'sandbox_default' });
    expect(res.body.data.successful).toEqual([
      {
        externalUserId: good.externalUserId,
        userId: expect.stringMatching(/^usr_/),
        status: 'pending_verification',
        consent: sandboxDefault,
      },
      {
        externalUserId: twin.externalUserId,
        userId: expect.stringMatching(/^usr_/),
        status: 'pending_verification',
        consent: sandboxDefault,
      },
    ]);
    expect(res.body.data.failed).toEqual([
      { index: 1, externalUserId: existing.externalUserId, error: { code: 'USER_EXISTS', message: expect.any(String) } },
      {
        index: 2,
        externalUserId: expect.any(String),
        error: {
          code: 'VALIDATION_ERROR',
          message: expect.any(String),
          details: [{ field: 'ssn', message: 'must be exactly 4 digits' }],
        },
      },
      { index: 4, externalUserId: twin.externalUserId, error: expect.objectContaining({ code: 'USER_EXISTS' }) },
      { index: 5, externalUserId: null, error: expect.objectContaining({ code: 'VALIDATION_ERROR' }) },
    ]);
    const users = await app.request('GET', `/v1/users?externalUserId=${good.externalUserId}`, { token });
    expect(users.body.pagination.total).toBe(1);
  });

  it('takes 1,000 users and refuses 1,001 or none', async () => {
    const thousand = Array.from({ length: 1000 }, () => enrollment());
    const ok = await batch(thousand);
    expect(ok.status).toBe(200);
    expect(ok.body.meta).toMatchObject({ total: 1000, successful: 1000, failed: 0 });

    const tooMany = await batch(Array.from({ length: 1001 }, () => enrollment()));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details).toEqual([{ field: 'users', message: 'must contain at most 1000 users' }]);
    const none = await batch([]);
    expect(none.status).toBe(400);
    const notArray = await app.request('POST', '/v1/users/enroll/batch', { token, body: { users: 'x', extra: true } });
    expect(notArray.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['extra', 'users']);
  });

  it('counts against the batch bucket (50/min by default)', async () => {
    const res = await batch([enrollment()]);
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
  });
});
