import type { TOffer } from '@credit/contract';
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
  admin = await app.token(await app.createClient({ name: 'Maple Bank (live)' }));
  userId = await enrolUser(app, admin);
  // Production has no bureau, so verification cannot pass over HTTP; mark the user verified directly.
  await app.db.query(`update users set status = 'active', verified_at = $2 where id = $1`, [userId, app.clock.now()]);
});
afterAll(() => app.close());

const OFFER = {
  type: 'credit_card',
  name: 'Maple Cash Back Card',
  description: 'Unlimited 1.5% cash back.',
  aprType: 'variable',
  tiers: [{ minScore: 680, maxScore: 850, apr: 21.99, creditLimit: { min: 1000, max: 10000 } }],
  rules: { minScore: 680 },
  applicationUrl: 'https://apply.maplebank.example/cards/cash-back?ref={clickId}',
};

describe('offers in production (no credit bureau configured)', () => {
  it('starts with an empty catalogue: no sample offers, however often it is read', async () => {
    for (const query of ['', '?status=all&limit=100', '?status=archived', '?type=loan&status=all']) {
      const res = await app.request('GET', `/v1/offers${query}`, { token: admin });
      expect(res.status, query).toBe(200);
      expect(res.body).toMatchObject({ data: [], pagination: { hasMore: false, nextCursor: null, total: 0 } });
    }
  });

  it('lists the bank’s own offers, which need no credit data, with its own application page', async () => {
    const created = await app.request('POST', '/v1/offers', { token: admin, body: OFFER });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const offer = created.body.data as TOffer;
    // Production never replaces an application URL, even on a .example host: it is the bank's page.
    expect(offer).toMatchObject({
      provider: 'Maple Bank (live)',
      status: 'active',
      version: 1,
      applicationUrl: 'https://apply.maplebank.example/cards/cash-back?ref=%7BclickId%7D',
    });
    const res = await app.request('GET', '/v1/offers?status=all&limit=100', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([offer]);
    expect((await app.request('GET', `/v1/offers/${offer.offerId}`, { token: admin })).body.data).toEqual(offer);

    // Another production client's catalogue stays its own, and empty.
    const other = await app.token(await app.createClient());
    expect((await app.request('GET', '/v1/offers?status=all', { token: other })).body.data).toEqual([]);
    expect((await app.request('GET', `/v1/offers/${offer.offerId}`, { token: other })).status).toBe(404);
  });

  it('answers 503 for a user’s offers and clicks rather than inventing a score', async () => {
    const [offer] = (await app.request('GET', '/v1/offers', { token: admin })).body.data as TOffer[];
    for (const [method, path] of [
      ['GET', `/v1/users/${userId}/offers`],
      ['POST', `/v1/users/${userId}/offers/${offer?.offerId}/click`],
    ] as const) {
      const res = await app.request(method, path, { token: admin });
      expect(res.status, path).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    expect((await app.db.query('select 1 from offer_clicks')).rows).toHaveLength(0);
  });

  it('does not serve the sandbox conversion helper (404)', async () => {
    const [offer] = (await app.request('GET', '/v1/offers', { token: admin })).body.data as TOffer[];
    const res = await app.request('POST', `/v1/sandbox/users/${userId}/offers/${offer?.offerId}/convert`, { token: admin });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});
