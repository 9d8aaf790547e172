import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
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

const enrolWithKey = (key: string, body: unknown, bearer = token) =>
  app.request('POST', '/v1/users/enroll', { token: bearer, body, headers: { 'idempotency-key': key } });

const countUsers = async (externalUserId: string) =>
  Number(
    (await app.db.query<{ n: number }>('select count(*)::int as n from users where external_user_id = $1', [externalUserId]))
      .rows[0]?.n,
  );

describe('Idempotency-Key', () => {
  it('replays the original response with Idempotent-Replayed: true', async () => {
    const body = enrollment();
    const first = await enrolWithKey('key-replay', body);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await enrolWithKey('key-replay', { ...body });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await countUsers(body.externalUserId)).toBe(1);
  });

  it('creates exactly one resource from 20 concurrent identical requests', async () => {
    const body = enrollment();
    const responses = await Promise.all(Array.from({ length: 20 }, () => enrolWithKey('key-race', body)));
    expect(await countUsers(body.externalUserId)).toBe(1);
    const created = responses.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.data.userId)).size).toBe(1);
    for (const r of responses.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    }
    const after = await enrolWithKey('key-race', body);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(after.body.data.userId).toBe(created[0]?.body.data.userId);
  });

  it('answers 409 IDEMPOTENCY_CONFLICT when the key is reused for a different body or path', async () => {
    const body = enrollment();
    await enrolWithKey('key-reuse', body);
    const otherBody = await enrolWithKey('key-reuse', { ...body, firstName: 'Someone' });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const otherPath = await app.request('POST', '/v1/users/enroll/batch', {
      token,
      body: { users: [body] },
      headers: { 'idempotency-key': 'key-reuse' },
    });
    expect(otherPath.status).toBe(409);
  });

  it('replays a completed 4xx, but never stores validation errors', async () => {
    const body = enrollment();
    await app.request('POST', '/v1/users/enroll', { token, body });
    const conflict = await enrolWithKey('key-4xx', body);
    expect(conflict.body.error.code).toBe('USER_EXISTS');
    const replay = await enrolWithKey('key-4xx', body);
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const invalid = await enrolWithKey('key-fixable', { ...enrollment(), ssn: '1' });
    expect(invalid.status).toBe(400);
    const fixed = await enrolWithKey('key-fixable', enrollment());
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    const body = enrollment();
    await enrolWithKey('key-expiry', body);
    app.clock.advance(24 * 3600 * 1000);
    token = await app.token(client);
    const later = await enrolWithKey('key-expiry', body);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.error.code).toBe('USER_EXISTS');
  });

  it('never stores a 429: a retry with the same key after Retry-After is served, not refused again', async () => {
    const userId = await enrolActiveUser(app, token);
    const refresh = (key?: string) =>
      app.request('POST', `/v1/users/${userId}/credit-score/refresh`, {
        token,
        headers: key ? { 'idempotency-key': key } : {},
      });
    expect((await refresh()).status).toBe(200);
    // Late in the day's window, so Retry-After (4 h) ends well inside a stored answer's 24 h replay window.
    app.clock.advance(20 * 3600 * 1000);
    token = await app.token(client);
    const refused = await refresh('key-429');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBe(4 * 3600);
    const stored = await app.db.query('select 1 from idempotency_keys where key = $1', ['key-429']);
    expect(stored.rows, 'a 429 leaves no stored answer').toHaveLength(0);

    app.clock.advance(retryAfter * 1000);
    token = await app.token(client);
    const retried = await refresh('key-429');
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replay = await refresh('key-429');
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps a user token’s keys per customer, whatever colons the customer id and the key hold', async () => {
    const identity = {
      ssn: '4321',
      dateOfBirth: '1988-02-03',
      address: { street: '9 Elm St', city: 'Madison', state: 'WI', zipCode: '53703' },
    };
    const xy = await app.userToken(token, 'x:y', { email: 'xy@example.test' });
    const x = await app.userToken(token, 'x');
    const first = await app.request('POST', '/v1/users/enroll', {
      token: xy,
      body: identity,
      headers: { 'idempotency-key': 'K1' },
    });
    expect(first.status).toBe(201);
    expect(first.body.data.externalUserId).toBe('x:y');
    // `x` + `y:K1` once read as the same stored key as `x:y` + `K1`, and replayed the other customer's enrolment.
    const second = await app.request('POST', '/v1/users/enroll', {
      token: x,
      body: identity,
      headers: { 'idempotency-key': 'y:K1' },
    });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.externalUserId).toBe('x');
    expect(second.body.data.userId).not.toBe(first.body.data.userId);
  });

  it('keeps keys per client and rejects keys over 255 characters', async () => {
    const otherToken = await app.token(await app.createClient());
    const body = enrollment();
    expect((await enrolWithKey('shared-key', body)).status).toBe(201);
    const other = await enrolWithKey('shared-key', body, otherToken);
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    const long = await enrolWithKey('k'.repeat(256), enrollment());
    expect(long.status).toBe(400);
    expect(long.body.error.details[0].field).toBe('Idempotency-Key');
  });
});
