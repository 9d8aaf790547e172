import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser } from './helpers/credit-users.ts';
import { productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
let admin: string;
let userId: string;

beforeAll(async () => {
  app = await startTestApp({
    config: productionEnv(),
  });
  admin = await app.token(await app.createClient());
  userId = await enrolUser(app, admin);
  // Production has no bureau, so verification cannot pass over HTTP; mark the user verified directly.
  await app.db.query(`update users set status = 'active', verified_at = $2 where id = $1`, [userId, app.clock.now()]);
});
afterAll(() => app.close());

describe('offers in production (no credit bureau configured)', () => {
  it('still lists the catalogue, which needs no credit data', async () => {
    const res = await app.request('GET', '/v1/offers', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
  });

  it('answers 503 for a user’s offers and clicks rather than inventing a score', async () => {
    for (const [method, path] of [
      ['GET', `/v1/users/${userId}/offers`],
      ['POST', `/v1/users/${userId}/offers/off_nwbCashBack001/click`],
    ] as const) {
      const res = await app.request(method, path, { token: admin });
      expect(res.status, path).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    expect((await app.db.query('select 1 from offer_clicks')).rows).toHaveLength(0);
  });

  it('does not serve the sandbox conversion helper (404)', async () => {
    const res = await app.request('POST', `/v1/sandbox/users/${userId}/offers/off_nwbCashBack001/convert`, { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
