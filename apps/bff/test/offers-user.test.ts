import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/modules/offers/catalogue.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

interface OfferBody {
  offerId: string;
  type: string;
  preQualified: boolean;
  expiresAt: string;
}

let app: TestApp;
let client: TestClient;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  admin = await app.token(client);
});
afterAll(() => app.close());

const minScore = (offerId: string) => {
  const entry = CATALOGUE.find((o) => o.offerId === offerId);
  if (!entry) throw new Error(`${offerId} is not in the catalogue`);
  return entry.minScore;
};
const expiredIds = CATALOGUE.filter((o) => o.expiresInMonths < 0).map((o) => o.offerId);

const offersOf = (userId: string, query = '', token = admin) =>
  app.request('GET', `/v1/users/${userId}/offers${query}`, { token });

const currentScore = async (userId: string): Promise<number> => {
  const res = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.score as number;
};

const setScore = async (userId: string, score: number) => {
  const res = await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token: admin, body: { score } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** The ordering rule, checked as a property: qualified first, then "closest threshold to the score first". */
const expectBestFitOrder = (offers: OfferBody[], score: number) => {
  const firstNotQualified = offers.findIndex((o) => !o.preQualified);
  if (firstNotQualified >= 0) expect(offers.slice(firstNotQualified).every((o) => !o.preQualified)).toBe(true);
  const distances = (group: OfferBody[]) => group.map((o) => Math.abs(score - minScore(o.offerId)));
  for (const group of [offers.filter((o) => o.preQualified), offers.filter((o) => !o.preQualified)]) {
    const d = distances(group);
    expect(d).toEqual([...d].sort((a, b) => a - b));
  }
};

describe('GET /v1/users/{userId}/offers', () => {
  it('pre-qualifies each user on their own score: two users, two different files', async () => {
    // Same sandbox bureau, different identities → different synthetic files and scores.
    const low = await enrolActiveUser(app, admin);
    const high = await enrolActiveUser(app, admin, {
      firstName: 'Alex',
      lastName: 'Morgan',
      ssn: '4321',
      dateOfBirth: '1979-11-02',
    });
    const scores: [number, number] = [await currentScore(low), await currentScore(high)];
    expect(scores[0]).not.toBe(scores[1]);

    const qualifiedCounts = [];
    for (const [i, userId] of [low, high].entries()) {
      const score = scores[i as 0 | 1];
      const res = await offersOf(userId, '?status=all&limit=100');
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(CATALOGUE.length);
      for (const offer of res.body.data as OfferBody[]) {
        expect(offer.preQualified, `${offer.offerId} at score ${score}`).toBe(score >= minScore(offer.offerId));
      }
      expectBestFitOrder(res.body.data, score);
      qualifiedCounts.push(res.body.data.filter((o: OfferBody) => o.preQualified).length);
    }
    const [lowCount, highCount] = scores[0] < scores[1] ? qualifiedCounts : [...qualifiedCounts].reverse();
    expect(lowCount).toBeLessThan(highCount as number);
  });

  it('follows the score when it changes: best fit first, then the nearest threshold', async () => {
    const userId = await enrolActiveUser(app, admin);

    await setScore(userId, 520);
    const poor = await offersOf(userId, '?limit=100');
    expect(poor.status).toBe(200);
    const poorOffers = poor.body.data as OfferBody[];
    expect(poorOffers.filter((o) => o.preQualified).map((o) => o.offerId)).toEqual(['off_fcuSecured0001']);
    // Not qualified: the 560 starter loan is the nearest to reach, then the 580 FHA mortgage.
    expect(poorOffers.slice(1, 3).map((o) => o.offerId)).toEqual(['off_wgbStarterLn01', 'off_tspFhaLoan0001']);
    expectBestFitOrder(poorOffers, 520);

    await setScore(userId, 690);
    const good = (await offersOf(userId, '?limit=100')).body.data as OfferBody[];
    // Two offers need 680; the lower APR (the 30-year mortgage at 6.25 %) wins the tie.
    expect(good.slice(0, 2).map((o) => o.offerId)).toEqual(['off_tspFixed30yr01', 'off_fcuDebtConsol1']);
    expect(
      good
        .filter((o) => o.preQualified)
        .map((o) => o.offerId)
        .sort(),
    ).toEqual(
      CATALOGUE.filter((o) => o.expiresInMonths > 0 && o.minScore <= 690)
        .map((o) => o.offerId)
        .sort(),
    );
    expect(good.at(-1)?.offerId).toBe('off_nwbTravelPlus01'); // 740, the furthest away
    expectBestFitOrder(good, 690);
  });

  it('status=expired lists only expired offers (still pre-qualified by score); type filters', async () => {
    const userId = await enrolActiveUser(app, admin);
    await setScore(userId, 800);
    const expired = await offersOf(userId, '?status=expired');
    expect(expired.status).toBe(200);
    expect(expired.body.data.map((o: OfferBody) => o.offerId).sort()).toEqual([...expiredIds].sort());
    for (const offer of expired.body.data as OfferBody[]) {
      expect(Date.parse(offer.expiresAt)).toBeLessThan(app.clock.now().getTime());
      expect(offer.preQualified).toBe(true);
    }
    const active = await offersOf(userId, '?limit=100');
    expect(active.body.data.some((o: OfferBody) => expiredIds.includes(o.offerId))).toBe(false);

    const mortgages = await offersOf(userId, '?type=mortgage&status=all');
    expect(mortgages.body.data.length).toBe(CATALOGUE.filter((o) => o.type === 'mortgage').length);
    expect(mortgages.body.data.every((o: OfferBody) => o.type === 'mortgage')).toBe(true);
  });

  it('dates the offers by the month: the same user and score, asked again after the month turns, get new dates', async () => {
    const userId = await enrolActiveUser(app, admin);
    await setScore(userId, 700);
    const before = await offersOf(userId, '?status=all&limit=100');
    expect(before.status).toBe(200);
    const started = app.clock.now();
    try {
      app.clock.advance(40 * 24 * 3600 * 1000);
      const token = await app.token(client);
      await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token, body: { score: 700 } });
      const after = await offersOf(userId, '?status=all&limit=100', token);
      expect(after.status).toBe(200);
      const dates = (res: typeof before) =>
        new Map((res.body.data as OfferBody[]).map((offer) => [offer.offerId, Date.parse(offer.expiresAt)]));
      const [was, now] = [dates(before), dates(after)];
      expect([...now.keys()].sort()).toEqual([...was.keys()].sort());
      for (const [offerId, at] of now) expect(at, offerId).toBeGreaterThan(was.get(offerId) as number);
    } finally {
      app.clock.set(started);
    }
  });

  it('pages through the ranked list; a cursor only works for its user and filters', async () => {
    const userId = await enrolActiveUser(app, admin);
    const other = await enrolActiveUser(app, admin);
    const full = (await offersOf(userId, '?limit=100')).body.data.map((o: OfferBody) => o.offerId);
    const seen: string[] = [];
    let cursor: string | null = null;
    let first: string | null = null;
    do {
      const res: { status: number; body: { data: OfferBody[]; pagination: { nextCursor: string | null; total: number } } } =
        await offersOf(userId, `?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(full.length);
      seen.push(...res.body.data.map((o) => o.offerId));
      cursor = res.body.pagination.nextCursor;
      first ??= cursor;
    } while (cursor);
    expect(seen).toEqual(full);

    for (const [path, query] of [
      [`/v1/users/${other}/offers`, `?limit=3&cursor=${first}`],
      [`/v1/users/${userId}/offers`, `?limit=3&type=loan&cursor=${first}`],
      ['/v1/offers', `?limit=3&cursor=${first}`],
    ]) {
      const res = await app.request('GET', `${path}${query}`, { token: admin });
      expect(res.status, `${path}${query}`).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
    }
  });

  it.each([
    ['type=boat', 'query.type'],
    ['status=maybe', 'query.status'],
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['sort=name', 'query.sort'],
  ])('rejects %s with 400 naming %s', async (query, field) => {
    const userId = await enrolUser(app, admin);
    const res = await offersOf(userId, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });
});

describe('who may read a user’s offers', () => {
  it('answers 403 USER_NOT_ENROLLED before verification', async () => {
    const userId = await enrolUser(app, admin);
    const res = await offersOf(userId);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('USER_NOT_ENROLLED');
  });

  it('answers 403 CREDIT_FROZEN for a frozen file (sandbox ssn 0000)', async () => {
    const userId = await enrolActiveUser(app, admin, { ssn: '0000' });
    const res = await offersOf(userId);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CREDIT_FROZEN');
  });

  it('hides another client’s user (404) and needs the offers scope (403)', async () => {
    const userId = await enrolActiveUser(app, admin);
    const otherClient = await app.createClient();
    const foreign = await offersOf(userId, '', await app.token(otherClient));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');

    const noOffers = await offersOf(userId, '', await app.token(client, 'read write'));
    expect(noOffers.status).toBe(403);
    expect(noOffers.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await offersOf(userId, '', await app.token(client, 'offers'))).status).toBe(200);
  });

  it('lets a user token read its own user’s offers, and not another user’s (404)', async () => {
    const mine = await enrolActiveUser(app, admin, { externalUserId: 'offers-self-1' });
    const theirs = await enrolActiveUser(app, admin, { externalUserId: 'offers-self-2' });
    const userToken = await app.userToken(admin, 'offers-self-1');
    const own = await offersOf(mine, '', userToken);
    expect(own.status).toBe(200);
    expect(own.body.data.length).toBeGreaterThan(0);
    const other = await offersOf(theirs, '', userToken);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
  });
});
