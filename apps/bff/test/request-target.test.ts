import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_A_PATH, readTarget, UNREADABLE_TARGET } from '../src/http/request-target.ts';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/** One request sent byte for byte (fetch and node:http would normalise or refuse the target first): status and body. */
const rawRequest = (url: string, target: Buffer | string, token: string): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        Buffer.concat([
          Buffer.from('GET '),
          Buffer.isBuffer(target) ? target : Buffer.from(target),
          Buffer.from(` HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`),
        ]),
      );
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
    });
    socket.on('end', () => {
      const status = Number(answer.slice(9, 12));
      resolve({ status, body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
    socket.on('error', reject);
  });

describe('request targets, read in one place before dispatch', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const client = await app.createClient();
    token = await app.token(client);
    userId = await enrolUser(app, token);
  });
  afterAll(() => app.close());

  it('serves an absolute-form target as its path and query, like the same request in origin-form', async () => {
    const origin = await rawRequest(app.url, `/v1/users/${userId}`, token);
    const absolute = await rawRequest(app.url, `http://bank.example/v1/users/${userId}`, token);
    expect(origin.status).toBe(200);
    expect(absolute.status).toBe(200);
    expect(JSON.parse(absolute.body).data.userId).toBe(userId);
    const listed = await rawRequest(app.url, 'http://bank.example/v1/users?limit=1', token);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.body).data).toHaveLength(1);
  });

  it.each([
    ['a #', (id: string) => `/v1/users/${id}#x`],
    ['a # in the query', (id: string) => `/v1/users/${id}?a=#b`],
    ['an absolute URL with a #', (id: string) => `http://bank.example/v1/users/${id}#x`],
  ])('refuses a target holding %s with a 400 naming the target, whatever it names', async (_what, target) => {
    const answer = await rawRequest(app.url, target(userId), token);
    expect(answer.status).toBe(400);
    const body = JSON.parse(answer.body);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.details).toEqual([{ field: 'target', message: expect.stringContaining('percent-encode') }]);
    expect(body.meta.requestId).toMatch(/^req_/);
  });

  it('never routes a target with a raw no-break space or without a path (Node refuses them as it parses)', async () => {
    const spaced = Buffer.concat([Buffer.from(`/v1/users/${userId}`), Buffer.from([0xc2, 0xa0])]);
    expect((await rawRequest(app.url, spaced, token)).status).toBe(400);
    expect((await rawRequest(app.url, 'v1/users', token)).status).toBe(400);
  });

  it('reads each form of target one way, refusing what two parsers could read differently', () => {
    expect(readTarget('/v1/users?limit=1')).toEqual({ path: '/v1/users', url: '/v1/users?limit=1' });
    expect(readTarget('https://bank.example:8443/v1/users?x=1')).toEqual({ path: '/v1/users', url: '/v1/users?x=1' });
    expect(readTarget('http://bank.example')).toEqual({ path: '/', url: '/' });
    expect(readTarget('http://bank.example?x=1')).toEqual({ path: '/', url: '/?x=1' });
    expect(readTarget('*')).toEqual({ serverWide: true });
    for (const odd of ['/v1/users\u00a0', '/v1/users\tx', '/v1/ users', '/v1/users#x', '/v1/users\ufeff']) {
      expect(readTarget(odd)).toEqual({ refused: UNREADABLE_TARGET });
    }
    expect(readTarget('v1/users')).toEqual({ refused: NOT_A_PATH });
    expect(readTarget('mailto:x@example.test')).toEqual({ refused: NOT_A_PATH });
  });
});
