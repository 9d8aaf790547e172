import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let admin: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  admin = await app.token(client);
});
afterAll(() => app.close());

const CARD = 'off_nwbCashBack001';
const EXPIRED = 'off_wgbPremier0001';

const click = (userId: string, offerId: string, body?: unknown, token = admin, headers?: Record<string, string>) =>
  app.request('POST', `/v1/users/${userId}/offers/${offerId}/click`, { token, body, headers });
const convert = (userId: string, offerId: string, token = admin) =>
  app.request('POST', `/v1/sandbox/users/${userId}/offers/${offerId}/convert`, { token });

const clickRows = async (userId: string) =>
  (
    await app.db.query<{
      id: string;
      offer_id: string;
      source: string | null;
      metadata: unknown;
      clicked_at: Date;
      recorded_at: Date;
    }>(
      'select id, offer_id, source, metadata, clicked_at, recorded_at from offer_clicks where user_id = $1 order by recorded_at',
      [userId],
    )
  ).rows;

const eventsOfType = async (type: string) => (await listEventsForClient(app.db, client.id)).filter((e) => e.type === type);

describe('POST /v1/users/{userId}/offers/{offerId}/click', () => {
  it('records the click (201), stores source and metadata, and emits offer.clicked', async () => {
    const externalUserId = 'clicker-1';
    const userId = await enrolActiveUser(app, admin, { externalUserId });
    const clickedAt = new Date(app.clock.now().getTime() - 90_000).toISOString();
    const res = await click(userId, CARD, {
      source: 'dashboard',
      timestamp: clickedAt,
      metadata: { page: 'offers', position: 2 },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      clickId: expect.stringMatching(/^clk_/),
      offerId: CARD,
      userId,
      recordedAt: app.clock.now().toISOString(),
    });
    const [row] = await clickRows(userId);
    expect(row).toMatchObject({
      id: res.body.data.clickId,
      offer_id: CARD,
      source: 'dashboard',
      metadata: { page: 'offers', position: 2 },
    });
    expect(new Date(row?.clicked_at as Date).toISOString()).toBe(clickedAt);
    expect(new Date(row?.recorded_at as Date).toISOString()).toBe(res.body.data.recordedAt);

    const event = (await eventsOfType('offer.clicked')).find((e) => e.data.clickId === res.body.data.clickId);
    expect(event?.data).toEqual({
      userId,
      externalUserId,
      offerId: CARD,
      offerType: 'credit_card',
      provider: 'Northwind Bank',
      clickId: res.body.data.clickId,
    });
  });

  it('takes an empty body: the click time is when the request arrives', async () => {
    const userId = await enrolActiveUser(app, admin);
    const res = await click(userId, 'off_tspFixed30yr01');
    expect(res.status).toBe(201);
    const [row] = await clickRows(userId);
    expect(row).toMatchObject({ source: null, metadata: null });
    expect(new Date(row?.clicked_at as Date).toISOString()).toBe(app.clock.now().toISOString());
  });

  it('accepts a client clock a little ahead, refuses a timestamp far in the future or past (400 timestamp)', async () => {
    const userId = await enrolActiveUser(app, admin);
    const at = (ms: number) => new Date(app.clock.now().getTime() + ms).toISOString();
    expect((await click(userId, CARD, { timestamp: at(4 * 60_000) })).status).toBe(201);
    for (const timestamp of [at(6 * 60_000), at(-31 * 24 * 3600_000)]) {
      const res = await click(userId, CARD, { timestamp });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'timestamp', message: expect.any(String) }]);
    }
    const bad = await click(userId, CARD, { timestamp: 'yesterday', metadata: { position: -1 }, colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'colour',
      'metadata.position',
      'timestamp',
    ]);
    expect(await clickRows(userId)).toHaveLength(1);
  });

  it('answers 404 for an offer the user cannot see: unknown or expired; 400 for a malformed id', async () => {
    const userId = await enrolActiveUser(app, admin);
    const before = (await eventsOfType('offer.clicked')).length;
    for (const offerId of ['off_doesNotExist1', EXPIRED]) {
      const res = await click(userId, offerId);
      expect(res.status, offerId).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    const malformed = await click(userId, 'offer-1');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.map((d: { field: string }) => d.field)).toEqual(['path.offerId']);
    expect(await clickRows(userId)).toHaveLength(0);
    expect((await eventsOfType('offer.clicked')).length).toBe(before);
  });

  it('counts a retried click once with the same Idempotency-Key, and replays the response', async () => {
    const userId = await enrolActiveUser(app, admin);
    const headers = { 'idempotency-key': `click-${userId}` };
    const body = { source: 'email' };
    const first = await click(userId, CARD, body, admin, headers);
    const retry = await click(userId, CARD, body, admin, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    expect(await clickRows(userId)).toHaveLength(1);
    expect((await eventsOfType('offer.clicked')).filter((e) => e.data.userId === userId)).toHaveLength(1);
  });

  it('refuses users who cannot see offers: not verified (403), frozen (403), another client’s (404)', async () => {
    const pending = await enrolUser(app, admin);
    const notEnrolled = await click(pending, CARD);
    expect(notEnrolled.status).toBe(403);
    expect(notEnrolled.body.error.code).toBe('USER_NOT_ENROLLED');

    const frozen = await enrolActiveUser(app, admin, { ssn: '0000' });
    const refused = await click(frozen, CARD);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CREDIT_FROZEN');
    expect(await clickRows(frozen)).toHaveLength(0);

    const userId = await enrolActiveUser(app, admin);
    const stranger = await click(userId, CARD, undefined, await app.token(await app.createClient()));
    expect(stranger.status).toBe(404);
    expect(await clickRows(userId)).toHaveLength(0);
  });

  it('takes a user token for its own user only, and needs the offers scope', async () => {
    const mine = await enrolActiveUser(app, admin, { externalUserId: 'click-self-1' });
    const theirs = await enrolActiveUser(app, admin, { externalUserId: 'click-self-2' });
    const userToken = await app.userToken(admin, 'click-self-1');
    expect((await click(mine, CARD, { source: 'widget' }, userToken)).status).toBe(201);
    expect((await click(theirs, CARD, { source: 'widget' }, userToken)).status).toBe(404);

    const noOffers = await click(mine, CARD, undefined, await app.token(client, 'read write'));
    expect(noOffers.status).toBe(403);
    expect(noOffers.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect(await clickRows(mine)).toHaveLength(1);
  });
});

describe('POST /v1/sandbox/users/{userId}/offers/{offerId}/convert', () => {
  it('answers 404 when the user has not clicked the offer', async () => {
    const userId = await enrolActiveUser(app, admin);
    await click(userId, 'off_tspFixed30yr01');
    const res = await convert(userId, CARD);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await convert(userId, 'off_doesNotExist1')).status).toBe(404);
  });

  it('credits the latest click and emits offer.converted; converting the same click again changes nothing', async () => {
    const externalUserId = 'converter-1';
    const userId = await enrolActiveUser(app, admin, { externalUserId });
    const older = await click(userId, CARD);
    app.clock.advance(60_000);
    const latest = await click(userId, CARD);
    app.clock.advance(60_000);
    const convertedAt = app.clock.now().toISOString();

    const res = await convert(userId, CARD);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ userId, offerId: CARD, clickId: latest.body.data.clickId, convertedAt });
    expect(res.body.data.clickId).not.toBe(older.body.data.clickId);

    const events = (await eventsOfType('offer.converted')).filter((e) => e.data.userId === userId);
    expect(events.map((e) => e.data)).toEqual([
      {
        userId,
        externalUserId,
        offerId: CARD,
        offerType: 'credit_card',
        provider: 'Northwind Bank',
        clickId: latest.body.data.clickId,
        convertedAt,
      },
    ]);
    const stored = await app.db.query('select click_id from offer_conversions where user_id = $1', [userId]);
    expect(stored.rows).toEqual([{ click_id: latest.body.data.clickId }]);

    app.clock.advance(60_000);
    const again = await convert(userId, CARD);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(res.body.data);
    expect((await eventsOfType('offer.converted')).filter((e) => e.data.userId === userId)).toHaveLength(1);

    // A new click can convert again, on its own.
    const fresh = await click(userId, CARD);
    const second = await convert(userId, CARD);
    expect(second.body.data.clickId).toBe(fresh.body.data.clickId);
    expect((await eventsOfType('offer.converted')).filter((e) => e.data.userId === userId)).toHaveLength(2);
  });

  it('needs the admin scope and hides another client’s user', async () => {
    const userId = await enrolActiveUser(app, admin);
    await click(userId, CARD);
    const offersOnly = await convert(userId, CARD, await app.token(client, 'offers write read'));
    expect(offersOnly.status).toBe(403);
    expect(offersOnly.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await convert(userId, CARD, await app.token(await app.createClient()))).status).toBe(404);
    expect(await app.db.query('select 1 from offer_conversions where user_id = $1', [userId])).toMatchObject({ rows: [] });
  });
});
