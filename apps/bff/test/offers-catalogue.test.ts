import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/modules/offers/catalogue.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client, 'offers');
});
afterAll(() => app.close());

const list = (query = '', as = token) => app.request('GET', `/v1/offers${query}`, { token: as });

/** Follows `nextCursor` to the end; returns every page. */
const walk = async (filters: string, limit: number) => {
  const pages = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${filters}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await list(query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body);
    cursor = res.body.pagination.nextCursor;
  } while (cursor);
  return pages;
};

const expiredIds = CATALOGUE.filter((o) => o.expiresInMonths < 0).map((o) => o.offerId);

describe('the catalogue data', () => {
  it('has realistic offers of every type from several providers', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(15);
    expect(new Set(CATALOGUE.map((o) => o.offerId)).size).toBe(CATALOGUE.length);
    expect(new Set(CATALOGUE.map((o) => o.provider)).size).toBeGreaterThanOrEqual(5);
    for (const offer of CATALOGUE) {
      expect(offer.offerId).toMatch(/^off_[A-Za-z0-9]{8,64}$/);
      expect(offer.applicationUrl).toMatch(/^https:\/\//);
      expect(offer.apr.min).toBeLessThanOrEqual(offer.apr.max);
      if (offer.type === 'credit_card') expect(offer.apr).toMatchObject({ type: 'variable' });
      if (offer.type === 'mortgage') expect([offer.apr.min >= 5.5, offer.apr.max <= 8.5]).toEqual([true, true]);
    }
    expect(expiredIds.length).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /v1/offers', () => {
  it('lists the active catalogue by default, nobody pre-qualified, every expiry in the future', async () => {
    const res = await list('?limit=100');
    expect(res.status).toBe(200);
    const now = app.clock.now().getTime();
    expect(res.body.data).toHaveLength(CATALOGUE.length - expiredIds.length);
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: CATALOGUE.length - expiredIds.length });
    for (const offer of res.body.data) {
      expect(offer.preQualified).toBe(false);
      expect(Date.parse(offer.expiresAt)).toBeGreaterThan(now);
      expect(expiredIds).not.toContain(offer.offerId);
    }
    const card = res.body.data.find((o: { offerId: string }) => o.offerId === 'off_nwbCashBack001');
    expect(card).toMatchObject({
      type: 'credit_card',
      provider: 'Northwind Bank',
      apr: { min: 19.24, max: 28.24, type: 'variable' },
      annualFee: 0,
      signupBonus: { amount: 200, requirement: expect.any(String) },
    });
    expect(card).not.toHaveProperty('minScore');
  });

  it('status=expired answers only the offers already past their expiry, at any date', async () => {
    for (const at of ['2026-01-01T00:00:00.000Z', '2027-06-30T23:59:59.500Z', '2028-02-29T12:00:00.000Z']) {
      app.clock.set(at);
      const then = await app.token(client, 'offers');
      const res = await list('?status=expired', then);
      expect(res.status).toBe(200);
      expect(res.body.data.map((o: { offerId: string }) => o.offerId).sort()).toEqual([...expiredIds].sort());
      for (const offer of res.body.data) expect(Date.parse(offer.expiresAt)).toBeLessThan(Date.parse(at));
      const active = await list('?limit=100', then);
      for (const offer of active.body.data) expect(Date.parse(offer.expiresAt)).toBeGreaterThan(Date.parse(at));
    }
    app.clock.set(new Date());
  });

  it('filters by type, and status=all includes both', async () => {
    const loans = await list('?type=loan&limit=100');
    expect(loans.body.data.length).toBeGreaterThan(0);
    expect(loans.body.data.every((o: { type: string }) => o.type === 'loan')).toBe(true);
    const expiredMortgages = await list('?type=mortgage&status=expired');
    expect(expiredMortgages.body.data.every((o: { type: string }) => o.type === 'mortgage')).toBe(true);
    expect(expiredMortgages.body.pagination.total).toBe(
      CATALOGUE.filter((o) => o.type === 'mortgage' && o.expiresInMonths < 0).length,
    );
    const all = await list('?status=all&limit=100');
    expect(all.body.pagination.total).toBe(CATALOGUE.length);
  });

  it('walks every page with the cursor: no duplicates, nothing missed, the same total on each page', async () => {
    const pages = await walk('&status=all', 4);
    expect(pages).toHaveLength(Math.ceil(CATALOGUE.length / 4));
    const ids = pages.flatMap((p) => p.data.map((o: { offerId: string }) => o.offerId));
    expect(ids).toEqual(CATALOGUE.map((o) => o.offerId));
    for (const page of pages) expect(page.pagination.total).toBe(CATALOGUE.length);
    expect(pages.slice(0, -1).every((p) => p.pagination.hasMore && p.data.length === 4)).toBe(true);
    expect(pages.at(-1)?.pagination).toMatchObject({ hasMore: false, nextCursor: null });

    const cards = await walk('&type=credit_card', 2);
    const cardIds = cards.flatMap((p) => p.data.map((o: { offerId: string }) => o.offerId));
    expect(new Set(cardIds).size).toBe(cardIds.length);
    expect(cardIds.length).toBe(cards[0].pagination.total);
  });

  it('refuses a cursor that was edited or made for other filters', async () => {
    const first = await list('?limit=2&type=loan');
    const cursor: string = first.body.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));

    const [body, signature] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...payload, offset: 1 })).toString('base64url')}.${signature}`;
    const flipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    for (const [query, why] of [
      [`?limit=2&type=loan&cursor=${forged}`, 'forged offset'],
      [`?limit=2&type=loan&cursor=${flipped}`, 'flipped signature'],
      [`?limit=2&type=mortgage&cursor=${cursor}`, 'other type'],
      [`?limit=2&type=loan&status=all&cursor=${cursor}`, 'other status'],
      ['?cursor=not-a-cursor', 'garbage'],
    ]) {
      const res = await list(query);
      expect(res.status, why).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
    const ok = await list(`?limit=5&type=loan&cursor=${cursor}`);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].offerId).not.toBe(first.body.data[0].offerId);
  });

  it.each([
    ['type=boat', 'query.type'],
    ['status=maybe', 'query.status'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['color=blue', 'query.color'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('needs the offers scope (or admin) and refuses user tokens', async () => {
    const read = await app.token(client, 'read webhooks');
    const refused = await list('', read);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await list('', await app.token(client, 'admin'))).status).toBe(200);

    const writer = await app.token(client, 'write');
    const userToken = await app.userToken(writer, 'catalogue-viewer');
    const userRes = await list('', userToken);
    expect(userRes.status).toBe(403);
    expect(userRes.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await app.request('GET', '/v1/offers')).status).toBe(401);
  });
});
