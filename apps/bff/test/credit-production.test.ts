import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser } from './helpers/credit-users.ts';
import { productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    config: productionEnv(),
  });
});
afterAll(() => app.close());

describe('credit data in production without a bureau adapter', () => {
  it('answers 503 instead of synthetic data, and hides the sandbox helpers', async () => {
    const token = await app.token(await app.createClient());
    const userId = await enrolUser(app, token);
    // No bureau means no verification either; mark the user verified the way a migration from another provider would.
    await app.db.query(`update users set status = 'active' where id = $1`, [userId]);
    for (const path of ['credit-score', 'credit-score/history', 'offers']) {
      const res = await app.request('GET', `/v1/users/${userId}/${path}`, { token });
      expect(res.status, path).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    const sandbox = await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token, body: {} });
    expect(sandbox.status).toBe(404);
    const rows = await app.db.query('select count(*)::int as n from score_history');
    expect(rows.rows[0]).toEqual({ n: 0 });
  });
});
