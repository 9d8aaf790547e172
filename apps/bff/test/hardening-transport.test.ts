import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';
import { assertMatchesOpenApi } from './helpers/openapi-check.ts';

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
});
afterAll(() => app.close());

const userCount = async () => Number((await app.db.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n);

/** A request with a byte body, checked against the OpenAPI document like every harness request. */
const sendBytes = async (path: string, body: Buffer, headers: Record<string, string>) => {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: new Uint8Array(body),
  });
  const parsed = await response.json();
  assertMatchesOpenApi('POST', path, response.status, response.headers, parsed);
  return { status: response.status, body: parsed };
};

describe('Content-Encoding', () => {
  const json = () => Buffer.from(JSON.stringify(enrollment()));

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('accepts a real %s body', async (encoding, compress) => {
    const res = await sendBytes('/v1/users/enroll', compress(json()), { 'content-encoding': encoding });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it.each(['gzip', 'deflate', 'br'])('refuses a %s body that is not compressed: 400 on Content-Encoding', async (encoding) => {
    const before = await userCount();
    const res = await sendBytes('/v1/users/enroll', json(), { 'content-encoding': encoding });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'Content-Encoding', message: `the body is not valid ${encoding} data` }]);
    expect(await userCount()).toBe(before);
  });

  it('refuses an encoding it does not undo: 400 on Content-Encoding, not an undocumented 415', async () => {
    const res = await sendBytes('/v1/webhooks', json(), { 'content-encoding': 'compress' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'Content-Encoding', message: 'must be one of gzip, deflate, br, identity' },
    ]);
  });

  it('answers the token endpoint in its own RFC 6749 body', async () => {
    const response = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' },
      body: 'grant_type=client_credentials',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });
});

/** A GET over node:http: fetch adds `Cache-Control: no-cache` to conditional requests, which hides a 304. */
const rawGet = (path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Headers; body: unknown }>((resolve, reject) => {
    const req = request(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value);
        try {
          const body = text ? JSON.parse(text) : undefined;
          assertMatchesOpenApi('GET', path.split('?')[0] as string, res.statusCode ?? 0, responseHeaders, body);
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body });
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });

describe('no ETag, never a 304', () => {
  it.each(['/v1/users', '/v1/offers', '/v1/webhooks'])(
    'GET %s is a 200 without ETag, no-store, whatever the conditions',
    async (path) => {
      const first = await rawGet(path, {});
      expect(first.headers.get('etag')).toBeNull();
      expect(first.headers.get('cache-control')).toBe('no-store');
      for (const conditional of [
        { 'if-none-match': '*' } as Record<string, string>,
        { 'if-none-match': 'W/"anything"' },
        { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() },
      ]) {
        const again = await rawGet(path, conditional);
        expect(again.status, JSON.stringify(conditional)).toBe(200);
        expect(again.headers.get('etag')).toBeNull();
      }
    },
  );
});

describe('WWW-Authenticate on every 401', () => {
  it('says Bearer when no token was sent', async () => {
    const res = await app.request('GET', '/v1/users');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it.each([
    ['a malformed token', 'nonsense'],
    ['an unknown token', `at_sbx_${'x'.repeat(40)}`],
  ])('adds error="invalid_token" for %s', async (_, sent) => {
    const res = await app.request('POST', '/v1/users/enroll', { token: sent, body: enrollment() });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });

  it('keeps the token endpoint’s own challenge', async () => {
    const res = await app.request('POST', '/oauth/token', {
      form: { grant_type: 'client_credentials', client_id: 'cli_sbx_nobody', client_secret: 'nope' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
  });
});
