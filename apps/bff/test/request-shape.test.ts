import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { enrollment, startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * The front door creates every field the API sets on a request and its response before it changes their prototypes
 * (front-door.ts, declareRequestFields): V8 gives such an object a hidden class of its own for every property added
 * later, and then every property access on it misses its inline cache. So: from the prototype change to the end of
 * the answer, no handler adds an own property to an operation's `req` or `res`.
 */
describe('the shape of an operation request', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const client = await app.createClient();
    token = await app.token(client);
    userId = await enrolActiveUser(app, token);
  });
  afterAll(() => app.close());

  /** The own keys of each request and response at their prototype change, and what was added by the time it closed. */
  const addedKeys = async (send: () => Promise<{ status: number }>): Promise<Record<string, string[]>> => {
    const seen: { kind: string; target: object; keys: Set<PropertyKey> }[] = [];
    const original = Object.setPrototypeOf;
    Object.setPrototypeOf = <T>(target: T, proto: object | null): T => {
      const result = original(target, proto);
      if (target instanceof http.IncomingMessage || target instanceof http.ServerResponse) {
        seen.push({ kind: target.constructor.name, target, keys: new Set(Reflect.ownKeys(target)) });
      }
      return result;
    };
    try {
      expect((await send()).status).toBeLessThan(300);
    } finally {
      Object.setPrototypeOf = original;
    }
    // The server may still be finishing the response when the client has its answer.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.map((s) => s.kind).sort()).toEqual(['IncomingMessage', 'ServerResponse']);
    return Object.fromEntries(
      seen.map((s) => [
        s.kind,
        Reflect.ownKeys(s.target)
          .filter((k) => !s.keys.has(k))
          .map(String),
      ]),
    );
  };

  it.each([
    ['GET', () => `/v1/users/${userId}`],
    ['GET', () => `/v1/users/${userId}/credit-score`],
    ['GET', () => `/v1/users/${userId}/offers?limit=2`],
    ['GET', () => `/v1/users/${userId}/alerts`],
  ])('%s %s adds no field to req or res after the prototype change', async (method, path) => {
    const added = await addedKeys(() => app.request(method, path(), { token }));
    expect(added).toEqual({ IncomingMessage: [], ServerResponse: [] });
  });

  it('nor does a write with a body, or a refused request', async () => {
    const written = await addedKeys(() =>
      app.request('POST', '/v1/users/enroll', { token, body: enrollment({ externalUserId: 'shape-1' }) }),
    );
    expect(written).toEqual({ IncomingMessage: [], ServerResponse: [] });
    const refused = await addedKeys(async () => {
      const res = await app.request('GET', `/v1/users/${userId}`, { token: 'not-a-token' });
      expect(res.status).toBe(401);
      return { status: 200 };
    });
    expect(refused).toEqual({ IncomingMessage: [], ServerResponse: [] });
  });
});
