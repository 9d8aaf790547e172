import type { TOffer } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient({ name: 'Maple Bank (sandbox)' });
});
afterAll(() => app.close());

const tok = () => app.currentToken(client);
const list = async (query = '', token?: string) => app.request('GET', `/v1/offers${query}`, { token: token ?? (await tok()) });
const idsOf = (offers: readonly TOffer[]) => offers.map((o) => o.offerId);

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

/** The sample catalogue a new sandbox client starts with: its offers, newest first, and their types. */
const SAMPLE: [string, TOffer['type']][] = [
  ['Cash Back Card', 'credit_card'],
  ['Balance Transfer Card', 'credit_card'],
  ['Secured Builder Card', 'credit_card'],
  ['Debt Consolidation Loan', 'loan'],
  ['Auto Refinance', 'loan'],
  ['30-Year Fixed Refinance', 'mortgage'],
  ['15-Year Fixed Refinance', 'mortgage'],
  ['Student Loan Refinance', 'loan'],
];

const offerInput = (overrides: Record<string, unknown> = {}) => ({
  type: 'credit_card',
  name: 'Maple Test Card',
  description: 'A card the tests add to the catalogue.',
  aprType: 'variable',
  tiers: [{ minScore: 300, maxScore: 850, apr: 19.99, creditLimit: { min: 500, max: 5000 } }],
  applicationUrl: 'https://apply.maple.test/cards/test?c={clickId}',
  ...overrides,
});

/** Creates an offer one second after the previous change, so the newest-first order does not rest on id ties. */
const create = async (overrides: Record<string, unknown> = {}): Promise<TOffer> => {
  app.clock.advance(1000);
  const res = await app.request('POST', '/v1/offers', { token: await tok(), body: offerInput(overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};
const transition = async (offerId: string, verb: 'pause' | 'resume' | 'archive') => {
  app.clock.advance(1000);
  const res = await app.request('POST', `/v1/offers/${offerId}/${verb}`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as TOffer;
};

describe('a new sandbox client’s sample catalogue', () => {
  it('holds the eight sample offers under the client’s own name, none pre-qualified, leading to the landing page', async () => {
    const res = await list('?status=all&limit=100');
    expect(res.status).toBe(200);
    const offers = res.body.data as TOffer[];
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: SAMPLE.length });
    expect(offers.map((o) => [o.name, o.type])).toEqual(SAMPLE.map(([name, type]) => [`Maple Bank ${name}`, type]));
    expect(new Set(idsOf(offers)).size).toBe(SAMPLE.length);
    for (const offer of offers) {
      expect(offer.offerId).toMatch(/^off_[A-Za-z0-9]{8,64}$/);
      // The client is "Maple Bank (sandbox)": the provider is the bank's name without the parenthesis.
      expect(offer).toMatchObject({
        provider: 'Maple Bank',
        status: 'active',
        version: 1,
        startsAt: null,
        expiresAt: null,
        preQualified: false,
        qualification: null,
        estimatedSavings: null,
      });
      // A fictional .example host never answers, so the sandbox leads Apply to its own page, the click id to fill.
      expect(offer.applicationUrl).toBe(`${app.url}/sandbox/apply/${offer.offerId}?clickId=%7BclickId%7D`);
      // The summary figures are the tiers' own.
      const aprs = offer.tiers.map((t) => t.apr);
      expect(offer.apr.min).toBe(Math.min(...aprs));
      expect(offer.apr.max).toBe(Math.max(...aprs));
      const limits = offer.tiers.flatMap((t) => (t.creditLimit ? [t.creditLimit] : []));
      expect(offer.creditLimit).toEqual({
        min: Math.min(...limits.map((l) => l.min)),
        max: Math.max(...limits.map((l) => l.max)),
      });
      const bands = [...offer.tiers].sort((a, b) => a.minScore - b.minScore);
      for (const [i, tier] of bands.entries()) {
        expect(tier.minScore).toBeLessThanOrEqual(tier.maxScore);
        if (i > 0) expect(tier.minScore).toBeGreaterThan(bands[i - 1]?.maxScore ?? 0);
      }
      expect(offer.termMonths === null).toBe(offer.type === 'credit_card');
      expect(offer.annualFee).toBe(offer.costs.annualFee);
    }
    // What lets the sandbox show savings: refinance offers with their costs, a card with an intro APR.
    const transfer = offers.find((o) => o.name === 'Maple Bank Balance Transfer Card');
    expect(transfer?.rules.refinance?.accountKinds).toEqual(['credit_card']);
    expect(transfer?.costs.introApr).toEqual({ apr: 0, months: 15 });
    expect(offers.filter((o) => o.rules.refinance).length).toBeGreaterThanOrEqual(6);
    expect(offers.find((o) => o.name === 'Maple Bank Secured Builder Card')?.rules).toEqual({});
  });

  it('is given once: read again, read concurrently by another client, each keeps its own offers', async () => {
    const first = idsOf((await list('?status=all&limit=100')).body.data);
    expect(idsOf((await list('?status=all&limit=100')).body.data)).toEqual(first);

    const other = await app.createClient({ name: 'Birch Credit Union' });
    const token = await app.token(other);
    const reads = await Promise.all(Array.from({ length: 5 }, () => list('?status=all&limit=100', token)));
    for (const read of reads) expect(read.status).toBe(200);
    const theirs = reads.map((read) => idsOf(read.body.data));
    for (const ids of theirs) expect(ids).toEqual(theirs[0]);
    expect(theirs[0]).toHaveLength(SAMPLE.length);
    expect(reads[0]?.body.data.every((o: TOffer) => o.provider === 'Birch Credit Union')).toBe(true);
    expect(theirs[0]?.filter((id) => first.includes(id))).toEqual([]);

    // One client's offer is no other client's: not in its list, 404 by id, not changeable.
    const mine = first[0] as string;
    const foreign = await app.request('GET', `/v1/offers/${mine}`, { token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    for (const verb of ['pause', 'archive']) {
      expect((await app.request('POST', `/v1/offers/${mine}/${verb}`, { token })).status).toBe(404);
    }
    expect((await app.request('PATCH', `/v1/offers/${mine}`, { token, body: { name: 'Taken' } })).status).toBe(404);
    const own = await app.request('GET', `/v1/offers/${mine}`, { token: await tok() });
    expect(own.body.data).toMatchObject({ offerId: mine, status: 'active', version: 1, name: 'Maple Bank Cash Back Card' });
  });
});

describe('GET /v1/offers filters', () => {
  let sample: TOffer[];
  let draft: TOffer;
  let paused: TOffer;
  let archived: TOffer;
  let expiring: TOffer;
  let pausedExpiring: TOffer;

  beforeAll(async () => {
    sample = (await list('?status=all&limit=100')).body.data;
    draft = await create({
      type: 'loan',
      name: 'Maple Draft Loan',
      aprType: 'fixed',
      termMonths: 36,
      status: 'draft',
      tiers: [{ minScore: 640, maxScore: 850, apr: 11.5, creditLimit: { min: 1000, max: 20000 } }],
    });
    paused = await transition((sample[0] as TOffer).offerId, 'pause');
    archived = await transition((sample[1] as TOffer).offerId, 'archive');
    const inAnHour = new Date(app.clock.now().getTime() + 3600_000).toISOString();
    expiring = await create({ name: 'Maple Holiday Card', expiresAt: inAnHour });
    pausedExpiring = await create({ name: 'Maple Summer Card', expiresAt: inAnHour });
    await transition(pausedExpiring.offerId, 'pause');
    app.clock.advance(2 * 3600_000);
  });

  it('status: active by default, and each status lists exactly its offers', async () => {
    const now = app.clock.now().getTime();
    const byStatus = async (status: string) => {
      const res = await list(`?status=${status}&limit=100`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const offer of res.body.data as TOffer[]) expect(offer.status).toBe(status);
      expect(res.body.pagination.total).toBe(res.body.data.length);
      return idsOf(res.body.data).sort();
    };
    const shown = idsOf(sample.slice(2)).sort();
    expect(idsOf((await list('?limit=100')).body.data).sort()).toEqual(shown);
    expect(await byStatus('active')).toEqual(shown);
    expect(await byStatus('draft')).toEqual([draft.offerId]);
    expect(await byStatus('paused')).toEqual([paused.offerId]);
    expect(await byStatus('archived')).toEqual([archived.offerId]);
    // Past expiresAt, an active or a paused offer reads as expired.
    expect(await byStatus('expired')).toEqual([expiring.offerId, pausedExpiring.offerId].sort());
    const expired = (await list('?status=expired')).body.data as TOffer[];
    for (const offer of expired) expect(Date.parse(offer.expiresAt ?? '')).toBeLessThanOrEqual(now);

    const all = await list('?status=all&limit=100');
    expect(all.body.pagination.total).toBe(sample.length + 3);
    expect(idsOf(all.body.data).sort()).toEqual(
      [...idsOf(sample), draft.offerId, expiring.offerId, pausedExpiring.offerId].sort(),
    );
  });

  it('lists newest first, and an offer moves between statuses as it changes', async () => {
    const all = (await list('?status=all&limit=100')).body.data as TOffer[];
    expect(idsOf(all).slice(0, 3)).toEqual([pausedExpiring.offerId, expiring.offerId, draft.offerId]);
    const created = all.map((o) => Date.parse(o.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const published = await transition(draft.offerId, 'resume');
    expect(published).toMatchObject({ status: 'active', version: 2 });
    expect(idsOf((await list('?limit=100')).body.data)).toContain(draft.offerId);
    expect((await list('?status=draft')).body.data).toEqual([]);
    const resumed = await transition(paused.offerId, 'resume');
    expect(resumed).toMatchObject({ status: 'active', version: 3 });
    expect((await list('?status=paused')).body.data).toEqual([]);

    const refused = await app.request('POST', `/v1/offers/${archived.offerId}/resume`, { token: await tok() });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('OFFER_STATE_CONFLICT');
    expect(idsOf((await list('?status=archived')).body.data)).toEqual([archived.offerId]);

    await transition(draft.offerId, 'pause');
    await transition(paused.offerId, 'pause');
    expect(idsOf((await list('?status=paused')).body.data).sort()).toEqual([draft.offerId, paused.offerId].sort());
  });

  it('type filters, alone and with a status', async () => {
    const all = (await list('?status=all&limit=100')).body.data as TOffer[];
    for (const type of ['credit_card', 'loan', 'mortgage'] as const) {
      const res = await list(`?type=${type}&status=all&limit=100`);
      expect(res.status).toBe(200);
      expect(idsOf(res.body.data)).toEqual(idsOf(all.filter((o) => o.type === type)));
      expect(res.body.pagination.total).toBe(all.filter((o) => o.type === type).length);
    }
    expect(all.filter((o) => o.type === 'mortgage')).toHaveLength(2);
    const expiredCards = await list('?type=credit_card&status=expired');
    expect(idsOf(expiredCards.body.data).sort()).toEqual([expiring.offerId, pausedExpiring.offerId].sort());
    expect((await list('?type=loan&status=expired')).body.data).toEqual([]);
  });

  it('walks every page with the cursor: no duplicates, nothing missed, the same total on each page', async () => {
    const full = idsOf((await list('?status=all&limit=100')).body.data);
    const pages = await walk('&status=all', 4);
    expect(pages).toHaveLength(Math.ceil(full.length / 4));
    expect(pages.flatMap((p) => idsOf(p.data))).toEqual(full);
    for (const page of pages) expect(page.pagination.total).toBe(full.length);
    expect(pages.slice(0, -1).every((p) => p.pagination.hasMore && p.data.length === 4)).toBe(true);
    expect(pages.at(-1)?.pagination).toMatchObject({ hasMore: false, nextCursor: null });

    const cards = await walk('&type=credit_card&status=all', 2);
    const cardIds = cards.flatMap((p) => idsOf(p.data));
    expect(new Set(cardIds).size).toBe(cardIds.length);
    expect(cardIds.length).toBe(cards[0].pagination.total);
    expect(cardIds.length).toBeGreaterThan(2);
  });

  it('refuses a cursor that was edited or made for other filters', async () => {
    const first = await list('?limit=2&type=credit_card&status=all');
    const cursor: string = first.body.pagination.nextCursor;
    expect(cursor).toEqual(expect.any(String));

    const [body, signature] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const forged = `${Buffer.from(JSON.stringify({ ...payload, offset: 1 })).toString('base64url')}.${signature}`;
    const flipped = `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`;
    for (const [query, why] of [
      [`?limit=2&type=credit_card&status=all&cursor=${forged}`, 'forged offset'],
      [`?limit=2&type=credit_card&status=all&cursor=${flipped}`, 'flipped signature'],
      [`?limit=2&type=loan&status=all&cursor=${cursor}`, 'other type'],
      [`?limit=2&type=credit_card&cursor=${cursor}`, 'other status'],
      [`?limit=2&status=all&cursor=${cursor}`, 'no type'],
      ['?cursor=not-a-cursor', 'garbage'],
    ]) {
      const res = await list(query);
      expect(res.status, why).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
    const ok = await list(`?limit=5&type=credit_card&status=all&cursor=${cursor}`);
    expect(ok.status).toBe(200);
    expect(idsOf(ok.body.data)).not.toContain(first.body.data[0].offerId);
  });
});

describe('GET /v1/offers refuses', () => {
  it.each([
    ['type=boat', 'query.type'],
    ['status=maybe', 'query.status'],
    ['status=ACTIVE', 'query.status'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['color=blue', 'query.color'],
  ])('%s with 400 naming %s', async (query, field) => {
    const res = await list(`?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });

  it('callers without the offers scope (or admin), user tokens and anonymous calls', async () => {
    const read = await app.token(client, 'read webhooks');
    const refused = await list('', read);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await list('', await app.token(client, 'admin'))).status).toBe(200);
    expect((await list('', await app.token(client, 'offers'))).status).toBe(200);

    const writer = await app.token(client, 'write');
    const userToken = await app.userToken(writer, 'catalogue-viewer');
    const userRes = await list('', userToken);
    expect(userRes.status).toBe(403);
    expect(userRes.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await app.request('GET', '/v1/offers')).status).toBe(401);
  });
});
