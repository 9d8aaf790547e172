import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { assertMatchesOpenApi } from './helpers/openapi-check.ts';

/**
 * No body, a zero-byte body (with Content-Length: 0, or chunked with no chunk) and `{}` (with any Content-Type) all
 * mean "no parameters"; a body with content on an operation that takes none is a 400 naming its fields; what the
 * caller may not see is a 404 before any body check; and a key already used answers as used, never behind a 400.
 */
let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
});
afterAll(() => app.close());

interface Wire {
  headers?: Record<string, string>;
  /** Written as they are, one write each; none and `chunked` on is a zero-byte chunked body. */
  chunks?: string[];
}

/** One request exactly as described on the wire (node:http, as a partner's Node server sends it). */
const raw = (method: string, path: string, wire: Wire = {}) =>
  new Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(`${app.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...wire.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        const body = text ? JSON.parse(text) : undefined;
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        assertMatchesOpenApi(method, path.split('?')[0] as string, res.statusCode ?? 0, headers, body);
        resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
      });
    });
    if (wire.headers?.['transfer-encoding'] === 'chunked') req.flushHeaders();
    for (const chunk of wire.chunks ?? []) req.write(chunk);
    req.end();
  });

const chunked = (type?: string, chunks: string[] = []): Wire => ({
  headers: { 'transfer-encoding': 'chunked', ...(type ? { 'content-type': type } : {}) },
  chunks,
});
const sized = (type: string | undefined, text: string): Wire => ({
  headers: { 'content-length': String(Buffer.byteLength(text)), ...(type ? { 'content-type': type } : {}) },
  chunks: text ? [text] : [],
});

const NOTHING: [string, Wire][] = [
  ['no body at all', {}],
  ['Content-Length: 0', sized(undefined, '')],
  ['Content-Length: 0 with a JSON Content-Type', sized('application/json', '')],
  ['a zero-byte chunked body', chunked()],
  ['a zero-byte chunked body with a JSON Content-Type', chunked('application/json')],
  ['{} as JSON', sized('application/json', '{}')],
  ['{} as JSON, chunked', chunked('application/json', ['{', '}'])],
  ['{} as text/plain (fetch with a string body)', sized('text/plain;charset=UTF-8', '{}')],
  ['{} without a Content-Type, chunked, with whitespace', chunked(undefined, [' {\n', '} '])],
  ["{} as a form (curl -d '{}')", sized('application/x-www-form-urlencoded', '{}')],
];

const NO_PARAMETERS = 'this operation takes no parameters: send no body, or {}';

describe('an operation that takes no body', () => {
  it.each(NOTHING)('POST …/credit-score/refresh with %s is served', async (_name, wire) => {
    const userId = await enrolActiveUser(app, token);
    const res = await raw('POST', `/v1/users/${userId}/credit-score/refresh`, wire);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.score).toEqual(expect.any(Number));
  });

  it('refuses a body with content, naming each field, or the body when it is no object', async () => {
    const userId = await enrolActiveUser(app, token);
    const path = `/v1/users/${userId}/credit-score/refresh`;
    const fields = await raw('POST', path, sized('application/json', '{"a":1,"force":true}'));
    expect(fields.status).toBe(400);
    expect(fields.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields.body.error.details).toEqual([
      { field: 'a', message: `is not a parameter: ${NO_PARAMETERS}` },
      { field: 'force', message: `is not a parameter: ${NO_PARAMETERS}` },
    ]);
    const form = await raw('POST', path, sized('application/x-www-form-urlencoded', 'a=1'));
    expect(form.body.error.details).toEqual([{ field: 'a', message: `is not a parameter: ${NO_PARAMETERS}` }]);
    for (const wire of [sized('application/json', '[]'), sized('text/plain', 'refresh'), chunked(undefined, ['x'])]) {
      const res = await raw('POST', path, wire);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'body', message: NO_PARAMETERS }]);
    }
  });

  it('answers a GET sent {} (or nothing, chunked) as it answers one without a body', async () => {
    const userId = await enrolUser(app, token);
    for (const wire of [sized('application/json', '{}'), chunked()]) {
      expect((await raw('GET', `/v1/users/${userId}`, wire)).status).toBe(200);
    }
    expect((await raw('GET', `/v1/users/${userId}`, sized('application/json', '{"x":1}'))).status).toBe(400);
  });
});

describe('an operation whose body is optional or required', () => {
  it('takes a zero-byte chunked body or {} without a Content-Type as no body (sandbox score refresh)', async () => {
    const userId = await enrolActiveUser(app, token);
    for (const wire of [chunked(), sized('text/plain', '{}'), sized('application/x-www-form-urlencoded', '{}')]) {
      const res = await raw('POST', `/v1/sandbox/users/${userId}/score-refresh`, wire);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  });

  it('answers a required body that came empty with its missing fields, not with its Content-Type', async () => {
    const res = await raw('POST', '/v1/users/enroll', chunked());
    expect(res.status).toBe(400);
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toContain('externalUserId');
    expect(fields).not.toContain('body');
  });
});

describe('what the caller may not see comes first', () => {
  it('answers 404 to another client’s refresh of our user, whatever its body', async () => {
    const userId = await enrolActiveUser(app, token);
    const other = await app.token(await app.createClient());
    const path = `/v1/users/${userId}/credit-score/refresh`;
    for (const body of ['{"a":1}', '{}', '[1]']) {
      const res = await app.request('POST', path, {
        token: other,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, body).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // The same for a body the operation reads, and for a resource of another kind (a subscription).
    const simulation = await app.request('POST', `/v1/users/${userId}/credit-score/simulations`, {
      token: other,
      body: { actions: 'none' },
    });
    expect(simulation.status).toBe(404);
    const hook = await app.request('POST', '/v1/webhooks/wh_doesnotexist0000000/recover', { token, body: { since: 7 } });
    expect(hook.status).toBe(404);
  });

  it('answers 404 to a user token about another customer, whatever its body', async () => {
    const userId = await enrolActiveUser(app, token);
    const someoneElse = await enrolUser(app, token);
    const { rows } = await app.db.query<{ external_user_id: string }>('select external_user_id from users where id = $1', [
      someoneElse,
    ]);
    const userToken = await app.userToken(token, rows[0]?.external_user_id as string);
    const res = await app.request('POST', `/v1/users/${userId}/credit-score/refresh`, {
      token: userToken,
      body: { a: 1 },
    });
    expect(res.status).toBe(404);
  });

  it('still answers 400 on our own user, and on a path whose id has the wrong prefix', async () => {
    const userId = await enrolActiveUser(app, token);
    const own = await app.request('POST', `/v1/users/${userId}/credit-score/refresh`, { token, body: { a: 1 } });
    expect(own.status).toBe(400);
    const prefix = await app.request('POST', '/v1/users/nope/credit-score/refresh', { token, body: { a: 1 } });
    expect(prefix.status).toBe(400);
  });
});

describe('a key already used', () => {
  it('replays its answer to the same request sent with a zero-byte chunked body or {}, and refuses another body', async () => {
    const userId = await enrolActiveUser(app, token);
    const path = `/v1/users/${userId}/credit-score/refresh`;
    const key = { 'idempotency-key': `refresh-${userId}` };
    const first = await raw('POST', path, { headers: key });
    expect(first.status).toBe(200);
    for (const wire of [chunked(), sized('application/json', '{}'), sized('application/x-www-form-urlencoded', '{}')]) {
      const replay = await raw('POST', path, { ...wire, headers: { ...wire.headers, ...key } });
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body.data).toEqual(first.body.data);
    }
    const other = await raw('POST', path, {
      ...sized('application/json', '{"a":1}'),
      headers: { ...key, 'content-type': 'application/json', 'content-length': '7' },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('answers 409, not 400, to an invalid body under a key a valid request used', async () => {
    const key = { 'idempotency-key': `enrol-${Date.now()}` };
    const first = await app.request('POST', '/v1/users/enroll', { token, body: enrollment(), headers: key });
    expect(first.status).toBe(201);
    const invalid = await app.request('POST', '/v1/users/enroll', { token, body: { externalUserId: 7 }, headers: key });
    expect(invalid.status).toBe(409);
    expect(invalid.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    // A key nobody used leaves the 400 to answer.
    const fresh = await app.request('POST', '/v1/users/enroll', {
      token,
      body: { externalUserId: 7 },
      headers: { 'idempotency-key': `fresh-${Date.now()}` },
    });
    expect(fresh.status).toBe(400);
  });
});
