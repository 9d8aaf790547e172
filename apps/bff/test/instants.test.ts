import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/** Every timestamp a caller sends is read once, by the contract's `instantOf`: SQL only ever sees a UTC instant. */
let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
});
afterAll(() => app.close());

const get = (path: string) => app.request('GET', path, { token });

describe('instants in query parameters', () => {
  it('take any offset ISO 8601 allows, including the ones PostgreSQL would refuse (±23:59)', async () => {
    for (const path of [
      '/v1/sandbox/clocks?createdBefore=2026-01-01T00:00:00-23:59',
      '/v1/users?createdAfter=2026-01-01T00:00:00%2B23:59',
      '/v1/audit-events?from=2026-01-01T00:00:00-23:59&to=2026-06-01T00:00:00%2B23:59',
    ]) {
      const res = await get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
  });

  it('refuse a day the month does not have and an offset that leaves the years 1900–9999, with a 400 naming the field', async () => {
    for (const [path, field] of [
      ['/v1/users?createdBefore=2026-02-30T00:00:00Z', 'query.createdBefore'],
      ['/v1/sandbox/clocks?createdAfter=9999-12-31T23:59:59-23:59', 'query.createdAfter'],
      ['/v1/audit-events?from=1900-01-01T00:00:00%2B01:00', 'query.from'],
    ] as const) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.details).toContainEqual({ field, message: expect.stringMatching(/date-time/) });
    }
  });
});
