import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * The contract's string policy: NUL and the other C0 controls, and unpaired UTF-16 surrogates, are refused
 * with 400 naming the field, in bodies, query and path alike, and nothing is written. Before it, each of
 * these reached PostgreSQL (text and jsonb refuse 0x00; jsonb refuses a lone surrogate) as a 500.
 */
let app: TestApp;
let token: string;
let userId: string;
/** An offer of the client's catalogue: a click naming one that is not is a 404 before its body is read. */
let offerId: string;

const TABLES = ['users', 'access_tokens', 'webhooks', 'offer_clicks', 'outbox_events', 'idempotency_keys'];
const counts = async () => {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await app.db.query<{ n: number }>(`select count(*)::int as n from ${table}`);
    result[table] = Number(rows[0]?.n);
  }
  return result;
};

/** Sends the request and expects `400 VALIDATION_ERROR` with exactly `field` in details, and no row written. */
const expectRefused = async (method: string, path: string, body: unknown, field: string, headers?: Record<string, string>) => {
  const before = await counts();
  const res = await app.request(method, path, { token, body, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  expect(await counts()).toEqual(before);
  return res.body.error.details[0].message as string;
};

const NUL = 'a\u0000b';
const LONE = 'a\ud800';

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
  userId = await enrolActiveUser(app, token);
  offerId = (await app.request('GET', '/v1/offers', { token })).body.data[0].offerId;
});
afterAll(() => app.close());

describe('bodies', () => {
  it.each([
    ['firstName', { firstName: NUL }],
    ['lastName', { lastName: 'Doe\u001f' }],
    ['externalUserId', { externalUserId: NUL }],
    ['externalUserId', { externalUserId: LONE }],
    ['address.city', { address: { street: '1 Main St', city: '\udc00x', state: 'IL', zipCode: '62701' } }],
    ['firstName', { firstName: 'Jane\tMary' }],
    ['lastName', { lastName: 'Doe\nSmith' }],
  ])('enrol refuses %s', async (field, overrides) => {
    const message = await expectRefused('POST', '/v1/users/enroll', enrollment(overrides), field, {
      'Idempotency-Key': `k-${field}`,
    });
    expect(message).toMatch(/control characters|unpaired UTF-16 surrogate/);
  });

  it('names a NUL in a field name too', async () => {
    await expectRefused('POST', '/v1/users/enroll', { ...enrollment(), 'x\u0000': 1 }, 'body');
  });

  it('refuses a batch whose item breaks the policy, naming the item field', async () => {
    await expectRefused(
      'POST',
      '/v1/users/enroll/batch',
      { users: [enrollment(), enrollment({ lastName: NUL })] },
      'users.1.lastName',
    );
    await expectRefused(
      'POST',
      '/v1/users/enroll/batch',
      { users: [enrollment({ externalUserId: LONE })] },
      'users.0.externalUserId',
    );
  });

  it.each([
    ['userId', { userId: NUL }],
    ['firstName', { firstName: LONE }],
    ['externalId', { externalId: 'x\u0000' }],
  ])('user-token refuses %s', async (field, overrides) => {
    const body = { userId: 'cust-1', email: 'jane@example.test', firstName: 'Jane', lastName: 'Doe', ...overrides };
    await expectRefused('POST', '/v1/auth/user-token', body, field);
  });

  it('webhook create and update refuse a url with a NUL or a lone surrogate', async () => {
    const body = { events: ['user.enrolled'], secret: 'whsec_0123456789abcdef' };
    await expectRefused('POST', '/v1/webhooks', { ...body, url: 'https://hooks.example.com/\u0000' }, 'url');
    await expectRefused('POST', '/v1/webhooks', { ...body, url: 'https://hooks.example.com/\ud800' }, 'url');
    await expectRefused(
      'POST',
      '/v1/webhooks',
      { ...body, url: 'https://127.0.0.1/ok', secret: `whsec_0123456789\u0000` },
      'secret',
    );
  });

  it.each([
    ['source', { source: NUL }],
    ['metadata.page', { metadata: { page: LONE } }],
    ['metadata.page', { metadata: { page: 'offers\u0000' } }],
  ])('offer click refuses %s', async (field, body) => {
    await expectRefused('POST', `/v1/users/${userId}/offers/${offerId}/click`, body, field);
  });

  it('verification answers refuse a NUL in an answer id', async () => {
    const body = { sessionId: 'ver_5Gh7jK2lM9nB3vC1', answers: [{ questionId: 'q1', answerId: 'q1\u0000' }] };
    await expectRefused('POST', `/v1/users/${userId}/verification/answers`, body, 'answers.0.answerId');
  });

  it('still accepts ordinary Unicode, emoji (surrogate pairs) included', async () => {
    const res = await app.request('POST', '/v1/users/enroll', {
      token,
      body: enrollment({ firstName: 'Zoë 😀', lastName: 'Ōtsuka-Núñez' }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('query and path', () => {
  it('refuses a NUL in a query parameter', async () => {
    await expectRefused('GET', '/v1/users?externalUserId=a%00b', undefined, 'query.externalUserId');
    await expectRefused('GET', '/v1/users?externalUserId=a%0Ab', undefined, 'query.externalUserId');
  });

  it('refuses query percent-encoding that is not UTF-8 (it would decode to U+FFFD)', async () => {
    await expectRefused('GET', '/v1/users?externalUserId=a%ED%A0%80', undefined, 'query.externalUserId');
    await expectRefused('GET', '/v1/webhooks?status=%ZZ', undefined, 'query.status');
  });

  it('refuses a NUL in a path parameter', async () => {
    await expectRefused('GET', '/v1/users/usr_a%00b', undefined, 'path.userId');
    await expectRefused('DELETE', '/v1/webhooks/wh_%01', undefined, 'path.webhookId');
  });
});

describe('headers', () => {
  it('refuses an Idempotency-Key with a control character (HTTP lets a tab through), naming the header', async () => {
    const message = await expectRefused('POST', '/v1/users/enroll', enrollment(), 'Idempotency-Key', {
      'Idempotency-Key': 'key\twith-a-tab',
    });
    expect(message).toMatch(/control characters/);
  });
});

describe('dates: years 1900–9999', () => {
  it.each(['/v1/users', '/v1/webhooks', `/v1/users/{userId}/alerts`])(
    '%s refuses createdAfter/createdBefore outside them',
    async (list) => {
      const path = list.replace('{userId}', () => userId);
      for (const [param, value] of [
        ['createdAfter', '0000-01-01T00:00:00Z'],
        ['createdBefore', '1899-12-31T23:59:59Z'],
        ['createdAfter', '0001-01-01T00:00:00%2B01:00'],
      ] as const) {
        const res = await app.request('GET', `${path}?${param}=${value}`, { token });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.details).toEqual([{ field: `query.${param}`, message: 'must be a date in the years 1900–9999' }]);
      }
      const ok = await app.request('GET', `${path}?createdAfter=1900-01-01T00:00:00Z&createdBefore=9999-12-31T23:59:59Z`, {
        token,
      });
      expect(ok.status).toBe(200);
    },
  );

  it('refuses a click timestamp outside them', async () => {
    await expectRefused(
      'POST',
      `/v1/users/${userId}/offers/${offerId}/click`,
      { timestamp: '0000-01-01T00:00:00Z' },
      'timestamp',
    );
  });

  it('refuses a date of birth outside them', async () => {
    await expectRefused('POST', '/v1/users/enroll', enrollment({ dateOfBirth: '0000-01-01' }), 'dateOfBirth');
  });
});
