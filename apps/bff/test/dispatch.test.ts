import { ALL_OPERATIONS } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleRoutes } from '../src/app.ts';
import { OperationTable } from '../src/http/operation-table.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * One dispatcher for contract operations (docs/decisions.md, "One dispatcher"): exact paths, letter case counts,
 * a trailing slash is another path, HEAD is GET without a body, OPTIONS names the methods. Before it, Express
 * served what the table missed with its own rules: `GET /V1/users/` answered the list.
 */
let app: TestApp;
let token: string;
let userId: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
  userId = await enrolUser(app, token);
});
afterAll(() => app.close());

const raw = (method: string, path: string, withToken = true) =>
  fetch(`${app.url}${path}`, { method, headers: withToken ? { authorization: `Bearer ${token}` } : {} });

describe('the operation table', () => {
  it('holds every operation of the contract, each once, bound by the modules createApp builds', () => {
    const table = new OperationTable(moduleRoutes(app.ctx).flatMap((m) => m.operations));
    const bound = table.routes.map((route) => route.op.operationId).sort();
    expect(bound).toEqual(ALL_OPERATIONS.map((op) => op.operationId).sort());
  });
});

describe('letter case and trailing slashes', () => {
  it.each([
    ['GET', '/V1/users'],
    ['GET', '/V1/users/'],
    ['GET', '/v1/Users'],
    ['GET', '/v1/users/'],
    ['GET', '/v1/USERS/{userId}'],
    ['GET', '/v1/users/{userId}/'],
    ['GET', '/v1/users/{userId}/Credit-Score'],
    ['GET', '/v1/users/{userId}/credit-score/'],
    ['POST', '/v1/users/enroll/'],
    ['POST', '/V1/users/enroll'],
    ['POST', '/OAUTH/token'],
    ['POST', '/oauth/token/'],
  ])('%s %s → 404 NOT_FOUND, with a token or without', async (method, template) => {
    const path = template.replace('{userId}', () => userId);
    for (const withToken of [true, false]) {
      const res = await raw(method, path, withToken);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });

  it('serves the exact path', async () => {
    expect((await raw('GET', '/v1/users')).status).toBe(200);
    expect((await raw('GET', `/v1/users/${userId}`)).status).toBe(200);
  });
});

describe('HEAD', () => {
  it('is the GET without its body: same status, length and headers, counted once like the GET', async () => {
    const get = await raw('GET', `/v1/users/${userId}`);
    const getBody = await get.text();
    const head = await raw('HEAD', `/v1/users/${userId}`);
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(Number(head.headers.get('x-ratelimit-remaining'))).toBe(Number(get.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('answers errors as the GET would, without the body: 401 with its challenge, 404 for an unknown id', async () => {
    const anonymous = await raw('HEAD', `/v1/users/${userId}`, false);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(await anonymous.text()).toBe('');
    expect((await raw('HEAD', '/v1/users/usr_nobody')).status).toBe(404);
  });

  it('is 405 where there is no GET, naming the methods there are', async () => {
    const head = await raw('HEAD', '/oauth/token', false);
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });
});

describe('OPTIONS', () => {
  it("answers 204 with the path's methods, counted like any request", async () => {
    const listing = await raw('OPTIONS', '/v1/users', false);
    expect(listing.status).toBe(204);
    expect(listing.headers.get('allow')).toBe('GET, HEAD');
    expect(listing.headers.get('x-ratelimit-remaining')).not.toBeNull();
    expect((await raw('OPTIONS', `/v1/users/${userId}`, false)).headers.get('allow')).toBe('DELETE, GET, HEAD');
    expect((await raw('OPTIONS', '/v1/users/', false)).status).toBe(404);
  });

  it('names the methods of the resource the path names, not those of a template it also fits', async () => {
    // `/v1/users/enroll` fits `/v1/users/{userId}` too, whose methods it used to list.
    expect((await raw('OPTIONS', '/v1/users/enroll', false)).headers.get('allow')).toBe('POST');
  });
});

describe('a method the path does not take', () => {
  it.each([
    ['PUT', '/v1/users', 'GET, HEAD'],
    ['DELETE', '/v1/users/enroll', 'POST'],
    ['GET', '/v1/users/enroll', 'POST'],
    ['PATCH', '/v1/users/usr_anyone', 'DELETE, GET, HEAD'],
  ])('%s %s → 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const response = await raw(method, path);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(body.error.message).toContain(allow);
  });

  it('is still 404 where no resource has that path', async () => {
    expect((await raw('PUT', '/v1/nothing-here')).status).toBe(404);
  });
});
