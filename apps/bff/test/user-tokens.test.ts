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

const identity = {
  ssn: '1234',
  dateOfBirth: '1988-08-08',
  address: { street: '5 Oak', city: 'Dayton', state: 'OH', zipCode: '45402' },
};

describe('POST /v1/auth/user-token', () => {
  it('mints a ut_ token valid for one hour', async () => {
    const res = await app.request('POST', '/v1/auth/user-token', {
      token,
      body: { userId: 'partner-77', email: 'p77@example.test', firstName: 'Pat', lastName: 'Lee', phone: '+1 555 010 0177' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      userToken: expect.stringMatching(/^ut_sbx_/),
      expiresIn: 3600,
      expiresAt: expect.any(String),
    });
    expect(Date.parse(res.body.data.expiresAt) - app.clock.now().getTime()).toBe(3600 * 1000);
  });

  it('needs the write scope and validates its body', async () => {
    const readOnly = await app.token(client, 'read');
    expect((await app.request('POST', '/v1/auth/user-token', { token: readOnly, body: {} })).status).toBe(403);
    const bad = await app.request('POST', '/v1/auth/user-token', { token, body: { userId: '', email: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'email',
      'firstName',
      'lastName',
      'userId',
    ]);
  });
});

describe('POST /v1/auth/user-token: externalUserId, and userId its deprecated name (issue 50)', () => {
  const person = { email: 'names@example.test', firstName: 'Nia', lastName: 'Mo' };
  /** Whom the minted token reads as: GET /v1/me of the customer enrolled under `externalUserId`. */
  const meOf = async (body: Record<string, string>) => {
    const minted = await app.request('POST', '/v1/auth/user-token', { token, body: { ...person, ...body } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    return app.request('GET', '/v1/me', { token: minted.body.data.userToken });
  };

  it('takes the bank’s id as externalUserId, as userId, or as both when they agree: the same customer each time', async () => {
    const enrolled = await app.request('POST', '/v1/users/enroll', {
      token,
      body: enrollment({ externalUserId: 'names-1', ...person, ...identity }),
    });
    expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(201);
    const bodies: Record<string, string>[] = [
      { externalUserId: 'names-1' },
      { userId: 'names-1' },
      { externalUserId: 'names-1', userId: 'names-1' },
    ];
    for (const body of bodies) {
      const me = await meOf(body);
      expect(me.status, JSON.stringify(body)).toBe(200);
      expect(me.body.data.userId).toBe(enrolled.body.data.userId);
    }
  });

  it('refuses neither and two different ids, naming the field', async () => {
    const neither = await app.request('POST', '/v1/auth/user-token', { token, body: person });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details).toEqual([{ field: 'externalUserId', message: expect.stringMatching(/^is required/) }]);
    const both = await app.request('POST', '/v1/auth/user-token', {
      token,
      body: { ...person, externalUserId: 'names-1', userId: 'names-2' },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.message).toMatch(/^userId: differs from externalUserId: userId is its deprecated name/);
  });
});

describe('a user token', () => {
  it('self-enrols with names and e-mail from the token, then sees itself on /v1/me and its own user', async () => {
    const ut = await app.userToken(token, 'self-1', { firstName: 'Sam', lastName: 'Rivera' });
    const before = await app.request('GET', '/v1/me', { token: ut });
    expect(before.status).toBe(403);
    expect(before.body.error.code).toBe('USER_NOT_ENROLLED');

    const refused = await app.request('POST', '/v1/users/enroll', {
      token: ut,
      body: { ...identity, externalUserId: 'someone-else' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'externalUserId', message: 'is not a known field' }]);

    const enrolled = await app.request('POST', '/v1/users/enroll', { token: ut, body: identity });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.data.externalUserId).toBe('self-1');

    const me = await app.request('GET', '/v1/me', { token: ut });
    expect(me.body.data).toMatchObject({
      userId: enrolled.body.data.userId,
      firstName: 'Sam',
      lastName: 'Rivera',
      email: 'self-1@example.test',
    });
    expect((await app.request('GET', `/v1/users/${enrolled.body.data.userId}`, { token: ut })).status).toBe(200);
  });

  it('answers 404 for another user’s id and 403 on every route outside its own user', async () => {
    const other = await app.request('POST', '/v1/users/enroll', { token, body: enrollment() });
    const ut = await app.userToken(token, 'self-2');
    const own = await app.request('POST', '/v1/users/enroll', { token: ut, body: identity });
    const foreign = await app.request('GET', `/v1/users/${other.body.data.userId}`, { token: ut });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');

    const forbidden: [string, string, unknown?][] = [
      ['GET', '/v1/users'],
      ['POST', '/v1/users/enroll/batch', { users: [enrollment()] }],
      ['DELETE', `/v1/users/${own.body.data.userId}`],
      ['POST', '/v1/auth/user-token', { userId: 'x', email: 'x@example.test', firstName: 'X', lastName: 'Y' }],
    ];
    for (const [method, path, body] of forbidden) {
      const res = await app.request(method, path, { token: ut, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    }
  });

  it('is refused on /v1/me’s counterpart for access tokens, and expires after an hour', async () => {
    const me = await app.request('GET', '/v1/me', { token });
    expect(me.status).toBe(403);
    const ut = await app.userToken(token, 'self-3');
    app.clock.advance(3600 * 1000);
    const expired = await app.request('GET', '/v1/me', { token: ut });
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });
});
