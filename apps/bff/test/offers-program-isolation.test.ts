import type { TCreateOfferInput } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { type ApiResponse, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { openMigratedTestDb, usingPostgres } from './helpers/test-db.ts';

/** The bound the operator docs give for another instance to see a write (NOTIFY delivery). */
const OTHER_INSTANCE_BOUND_MS = 1_000;

let db: Db & { schema?: string };
let otherDb: Db;
/** Two instances of the API on one database, as a deployment runs them. */
let one: TestApp;
let two: TestApp;
let bankA: TestClient;
let bankB: TestClient;
let offerA: string;
let offerB: string;
let userA: string;
let userB: string;
let clickA: string;

const OFFER: TCreateOfferInput = {
  type: 'credit_card',
  name: 'Bank A Platinum',
  description: 'Only for bank A’s customers.',
  aprType: 'variable',
  tiers: [{ minScore: 300, maxScore: 850, apr: 21, creditLimit: { min: 1000, max: 9000 } }],
  applicationUrl: 'https://apply.bank-a.test/platinum?ref={clickId}',
  status: 'active',
};

const tokenA = () => one.currentToken(bankA);
const tokenB = () => one.currentToken(bankB);

/** How long until `check` holds, polling every 5 ms; fails past `boundMs`. */
const within = async (boundMs: number, check: () => Promise<boolean>): Promise<number> => {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > boundMs) throw new Error(`not seen within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

const ids = (res: ApiResponse) => (res.body.data as { offerId: string }[]).map((o) => o.offerId);
const catalogueOn = async (app: TestApp, token: string) => {
  const res = await app.request('GET', '/v1/offers?status=all&limit=100', { token });
  expect(res.status).toBe(200);
  return ids(res);
};

beforeAll(async () => {
  db = await openMigratedTestDb();
  one = await startTestApp({ db, keepDb: true });
  otherDb = usingPostgres ? await openPostgres({ connectionString: process.env.DATABASE_URL as string, schema: db.schema }) : db;
  two = await startTestApp({ db: otherDb, keepDb: true });
  bankA = await one.createClient({ name: 'Bank A' });
  bankB = await one.createClient({ name: 'Bank B' });
  offerA = (await one.request('POST', '/v1/offers', { token: await tokenA(), body: OFFER })).body.data.offerId;
  offerB = (await one.request('POST', '/v1/offers', { token: await tokenB(), body: { ...OFFER, name: 'Bank B Classic' } })).body
    .data.offerId;
  userA = await enrolActiveUser(one, await tokenA(), { externalUserId: 'shared-external-id' });
  userB = await enrolActiveUser(one, await tokenB(), { externalUserId: 'shared-external-id' });
  const clicked = await one.request('POST', `/v1/users/${userA}/offers/${offerA}/click`, { token: await tokenA() });
  expect(clicked.status).toBe(201);
  clickA = clicked.body.data.clickId;
  expect(
    (await one.request('POST', `/v1/offers/clicks/${clickA}/outcomes`, { token: await tokenA(), body: { stage: 'applied' } }))
      .status,
  ).toBe(200);
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  if (otherDb && otherDb !== db) await otherDb.close();
  await db?.close();
});

describe('two clients', () => {
  it('B gets 404 for A’s offer on every offer route, on either instance, and changes nothing', async () => {
    const before = (await one.request('GET', `/v1/offers/${offerA}`, { token: await tokenA() })).body.data;
    for (const app of [one, two]) {
      const token = await app.currentToken(bankB);
      for (const [method, path, body] of [
        ['GET', `/v1/offers/${offerA}`],
        ['PATCH', `/v1/offers/${offerA}`, { name: 'Taken over' }],
        ['POST', `/v1/offers/${offerA}/pause`],
        ['POST', `/v1/offers/${offerA}/resume`],
        ['POST', `/v1/offers/${offerA}/archive`],
        ['GET', `/v1/offers/${offerA}/audience`],
        ['GET', `/v1/offers/clicks/${clickA}`],
        ['POST', `/v1/offers/clicks/${clickA}/outcomes`, { stage: 'funded', amount: 5000 }],
        ['POST', `/v1/users/${userB}/offers/${offerA}/click`],
        ['POST', `/v1/users/${userA}/offers/${offerA}/click`],
        ['POST', `/v1/sandbox/users/${userA}/offers/${offerA}/convert`],
      ] as const) {
        const res = await app.request(method, path, { token, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }
    expect((await one.request('GET', `/v1/offers/${offerA}`, { token: await tokenA() })).body.data).toEqual(before);
    const click = await one.request('GET', `/v1/offers/clicks/${clickA}`, { token: await tokenA() });
    expect(click.body.data).toMatchObject({ stage: 'applied', outcomes: [{ stage: 'applied' }] });
    const { rows } = await db.query('select 1 from offer_clicks where client_id = $1', [bankB.id]);
    expect(rows).toEqual([]);
  });

  it('B’s catalogue, impressions, audience and results never include A’s', async () => {
    const tokenOfB = await tokenB();
    const catalogue = await catalogueOn(one, tokenOfB);
    expect(catalogue).toContain(offerB);
    expect(catalogue).not.toContain(offerA);
    expect(await catalogueOn(one, await tokenA())).not.toContain(offerB);

    const seen = await one.request('POST', `/v1/users/${userB}/offers/impressions`, {
      token: tokenOfB,
      body: { offerIds: [offerA, offerB] },
    });
    expect(seen.body.data).toEqual({ counted: 1, alreadyCounted: 0 });
    const shown = await one.request('GET', `/v1/users/${userB}/offers?limit=100`, { token: tokenOfB });
    expect(ids(shown)).not.toContain(offerA);

    const audience = await one.request('GET', `/v1/offers/${offerB}/audience?limit=100`, { token: tokenOfB });
    expect(audience.body.data.map((m: { userId: string }) => m.userId)).toEqual([userB]);
    expect(audience.body.pagination.total).toBe(1);

    const day = one.clock.now().toISOString().slice(0, 10);
    const mine = await one.request('GET', `/v1/offers/results?from=${day}&to=${day}`, { token: tokenOfB });
    expect(mine.body.data.offers.map((o: { offerId: string }) => o.offerId)).not.toContain(offerA);
    expect(mine.body.data.totals).toMatchObject({ enrolled: 1, verified: 1, impressions: 1, clicks: 0, applications: 0 });
    expect(mine.body.data.scores.customers).toBe(1);
    // Asking for A's offer by id shows B nothing of it.
    const theirs = await one.request('GET', `/v1/offers/results?from=${day}&to=${day}&offerId=${offerA}`, { token: tokenOfB });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.offers).toEqual([]);
    expect(theirs.body.data.totals).toMatchObject({ impressions: 0, clicks: 0, applications: 0 });

    const a = await one.request('GET', `/v1/offers/results?from=${day}&to=${day}`, { token: await tokenA() });
    expect(a.body.data.totals).toMatchObject({ enrolled: 1, verified: 1, impressions: 0, clicks: 1, applications: 1 });
    expect(a.body.data.offers.map((o: { offerId: string }) => o.offerId)).not.toContain(offerB);
  });

  it('B’s audit trail and events hold nothing of A’s offers', async () => {
    const trail = await one.request('GET', '/v1/audit-events?type=offer.changed&limit=100', { token: await tokenB() });
    expect(trail.status).toBe(200);
    expect(trail.body.data.map((e: { subject: { offerId: string } }) => e.subject.offerId)).toEqual([offerB]);
    const events = await one.request('GET', '/v1/events?limit=100', { token: await tokenB() });
    expect(JSON.stringify(events.body.data)).not.toContain(offerA);
    expect(JSON.stringify(events.body.data)).not.toContain(clickA);
  });
});

describe('two instances on one database', () => {
  it('lists an offer created on one instance on the other (its cached catalogue invalidated)', async () => {
    const token = await tokenA();
    // Instance two has A's catalogue cached.
    expect(await catalogueOn(two, token)).toEqual(await catalogueOn(one, token));
    const created = await one.request('POST', '/v1/offers', { token, body: { ...OFFER, name: 'Bank A Gold' } });
    expect(created.status).toBe(201);
    const offerId = created.body.data.offerId as string;
    const seen = await within(OTHER_INSTANCE_BOUND_MS, async () => (await catalogueOn(two, token)).includes(offerId));
    expect(seen).toBeLessThan(OTHER_INSTANCE_BOUND_MS);
    expect((await two.request('GET', `/v1/offers/${offerId}`, { token })).body.data).toEqual(created.body.data);

    // A change on instance two reaches instance one, and a customer's click there records the new version.
    const paused = await two.request('POST', `/v1/offers/${offerId}/pause`, { token });
    expect(paused.body.data).toMatchObject({ status: 'paused', version: 2 });
    await within(OTHER_INSTANCE_BOUND_MS, async () => {
      const res = await one.request('GET', `/v1/offers/${offerId}`, { token });
      return res.body.data.status === 'paused';
    });
    expect((await one.request('POST', `/v1/users/${userA}/offers/${offerId}/click`, { token })).status).toBe(404);
    await two.request('POST', `/v1/offers/${offerId}/resume`, { token });
    const clicked = await within(OTHER_INSTANCE_BOUND_MS, async () => {
      const res = await one.request('POST', `/v1/users/${userA}/offers/${offerId}/click`, { token });
      return res.status === 201 && res.body.data.offerVersion === 3;
    });
    expect(clicked).toBeLessThan(OTHER_INSTANCE_BOUND_MS);
    // B's view on either instance is untouched.
    expect(await catalogueOn(two, await two.currentToken(bankB))).not.toContain(offerId);
  });

  it('gives a new sandbox client its sample catalogue once when both instances read it first at the same time', async () => {
    const fresh = await one.createClient({ name: 'Fresh Bank (sandbox)' });
    const [onOne, onTwo] = await Promise.all([
      one.currentToken(fresh).then((token) => catalogueOn(one, token)),
      two.currentToken(fresh).then((token) => catalogueOn(two, token)),
    ]);
    expect(onOne).toHaveLength(8);
    expect(onTwo.sort()).toEqual([...onOne].sort());
    const { rows } = await db.query<{ n: string }>('select count(*) as n from offers where client_id = $1', [fresh.id]);
    expect(Number(rows[0]?.n)).toBe(8);
  });
});
