import { CreditApiError } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * A validation error teaches in one round trip: every broken field of path, query and body at once (the age rule
 * too, though it reads the clock), and a message that names the first field and its rule.
 */
let app: TestApp;
let token: string;
let client: Awaited<ReturnType<TestApp['createClient']>>;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

type ErrorBody = {
  error: { code: string; message: string; docUrl: string; details: { field: string; message: string }[] };
};

describe('a form with several mistakes', () => {
  it('is answered with every broken field at once, the age rule included', async () => {
    const tooYoung = new Date(app.clock.now().getTime() - 10 * 365 * 86_400_000).toISOString().slice(0, 10);
    const res = await app.request('POST', '/v1/users/enroll', {
      token,
      body: enrollment({ email: 'not-an-email', ssn: '12', dateOfBirth: tooYoung }),
    });
    expect(res.status).toBe(400);
    const { error } = res.body as ErrorBody;
    expect(error.details.map((detail) => detail.field).sort()).toEqual(['dateOfBirth', 'email', 'ssn']);
    expect(error.details.find((detail) => detail.field === 'dateOfBirth')?.message).toBe('the person must be 18–120 years old');
  });

  it('is answered with the age rule alone when it is the only mistake', async () => {
    const res = await app.request('POST', '/v1/users/enroll', { token, body: enrollment({ dateOfBirth: '1901-01-01' }) });
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error.details).toEqual([
      { field: 'dateOfBirth', message: 'the person must be 18–120 years old' },
    ]);
  });

  it('reports path and query mistakes in the same answer', async () => {
    const res = await app.request('GET', '/v1/users/nobody/alerts?limit=0', { token });
    expect(res.status).toBe(400);
    const fields = (res.body as ErrorBody).error.details.map((detail) => detail.field);
    expect(fields).toContain('path.userId');
    expect(fields).toContain('query.limit');
  });
});

describe('the message', () => {
  it('names the first broken field and its rule, and how many more there are', async () => {
    const one = await app.request('GET', '/v1/users/nobody', { token });
    const { error } = one.body as ErrorBody;
    expect(error.message).toBe(`${error.details[0]?.field}: ${error.details[0]?.message}.`);
    expect(error.message).toMatch(/^path\.userId: /);
    const several = await app.request('POST', '/v1/users/enroll', { token, body: enrollment({ email: 'x', ssn: '1' }) });
    expect((several.body as ErrorBody).error.message).toMatch(/^\w+: .+ \(and 1 more field: see details\)\.$/);
  });
});

describe('where to read more', () => {
  it('every error carries a docUrl to its code on the errors page, and the page has that section', async () => {
    const answers = [
      await app.request('GET', '/v1/users/nobody', { token }),
      await app.request('GET', '/v1/users'),
      await app.request('GET', '/v1/users/usr_00000000000000000000', { token }),
      await app.request('PUT', '/v1/users', { token }),
    ];
    const page = await (await fetch(`${app.url}/docs/errors`)).text();
    for (const answer of answers) {
      const { error } = answer.body as ErrorBody;
      expect(error.docUrl).toBe(`${app.url}/docs/errors#${error.code}`);
      expect(page).toContain(`id="${error.code}"`);
    }
  });

  it('the token endpoint says where too (error_uri, RFC 6749)', async () => {
    const res = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${client.id}&client_secret=wrong-secret-000000`,
    });
    const body = (await res.json()) as { error: string; error_description: string; error_uri: string };
    expect(body.error).toBe('invalid_client');
    expect(body.error_uri).toBe(`${app.url}/docs/errors#invalid_client`);
    expect(body.error_description).toMatch(/client id and its current secret/);
  });
});

describe('the SDK', () => {
  it("names the first broken field and its rule in the exception's message, and links the docs", async () => {
    const failure = await app
      .sdk(client)
      .call('getUser', { params: { userId: 'nobody' } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CreditApiError);
    const error = failure as CreditApiError;
    expect(error.message).toMatch(/^path\.userId: must /);
    expect(error.docUrl).toBe(`${app.url}/docs/errors#VALIDATION_ERROR`);
  });
});
