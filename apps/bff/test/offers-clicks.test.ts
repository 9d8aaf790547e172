import type { TEventEnvelopeOf, TOffer } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
const tok = () => app.currentToken(client);

/** The bank's own application page, on a host the sandbox does not replace, asking for both placeholders. */
const APPLY = 'https://apply.bank.test/x?c={clickId}&u={externalUserId}';

let card: TOffer;
let sample: TOffer;

const createOffer = async (body: Record<string, unknown> = {}, as: TestClient = client): Promise<TOffer> => {
  const res = await app.request('POST', '/v1/offers', {
    token: await app.currentToken(as),
    body: {
      type: 'credit_card',
      name: 'Maple Everyday Card',
      description: 'A card every sandbox file can be shown.',
      aprType: 'variable',
      tiers: [
        { minScore: 300, maxScore: 699, apr: 24.99, creditLimit: { min: 500, max: 3000 } },
        { minScore: 700, maxScore: 850, apr: 18.99, creditLimit: { min: 3000, max: 12000 } },
      ],
      applicationUrl: APPLY,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient({ name: 'Maple Bank' });
  card = await createOffer();
  const catalogue = await app.request('GET', '/v1/offers?type=credit_card&limit=100', { token: await tok() });
  sample = (catalogue.body.data as TOffer[]).find((o) => o.name === 'Maple Bank Cash Back Card') as TOffer;
  expect(sample).toBeDefined();
});
afterAll(() => app.close());

const click = async (userId: string, offerId: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
  app.request('POST', `/v1/users/${userId}/offers/${offerId}/click`, { token: token ?? (await tok()), body, headers });
const convert = async (userId: string, offerId: string, token?: string) =>
  app.request('POST', `/v1/sandbox/users/${userId}/offers/${offerId}/convert`, { token: token ?? (await tok()) });
const clickRecord = async (clickId: string, token?: string) =>
  app.request('GET', `/v1/offers/clicks/${clickId}`, { token: token ?? (await tok()) });

const clickRows = async (userId: string) =>
  (
    await app.db.query<{
      id: string;
      offer_id: string;
      offer_version: number | null;
      source: string | null;
      metadata: unknown;
      clicked_at: Date;
      recorded_at: Date;
    }>(
      `select id, offer_id, offer_version, source, metadata, clicked_at, recorded_at from offer_clicks
       where user_id = $1 order by recorded_at, id`,
      [userId],
    )
  ).rows;

/** The client's events of one type about one user, oldest first, as GET /v1/events lists them. */
const eventsOf = async <T extends 'offer.clicked' | 'offer.converted'>(
  type: T,
  userId: string,
): Promise<TEventEnvelopeOf<T>[]> => {
  const res = await app.request('GET', `/v1/events?type=${type}&userId=${userId}&limit=100`, { token: await tok() });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return [...(res.body.data as TEventEnvelopeOf<T>[])].reverse();
};

describe('POST /v1/users/{userId}/offers/{offerId}/click', () => {
  it('records the click (201) with the version seen, and answers the application URL filled for it', async () => {
    // An id with characters a URL must encode: the filled URL still carries it exactly.
    const externalUserId = 'clicker 1/ä&co=1';
    const userId = await enrolActiveUser(app, await tok(), { externalUserId });
    const clickedAt = new Date(app.clock.now().getTime() - 90_000).toISOString();
    const res = await click(userId, card.offerId, {
      source: 'dashboard',
      timestamp: clickedAt,
      metadata: { page: 'offers', position: 2 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { clickId } = res.body.data;
    expect(res.body.data).toEqual({
      clickId: expect.stringMatching(/^clk_[A-Za-z0-9]+$/),
      offerId: card.offerId,
      userId,
      recordedAt: app.clock.now().toISOString(),
      offerVersion: 1,
      applicationUrl: `https://apply.bank.test/x?c=${clickId}&u=${encodeURIComponent(externalUserId)}`,
    });
    const opened = new URL(res.body.data.applicationUrl);
    expect([opened.host, opened.pathname]).toEqual(['apply.bank.test', '/x']);
    expect(Object.fromEntries(opened.searchParams)).toEqual({ c: clickId, u: externalUserId });
    // The catalogue shows the template, its placeholders percent-encoded.
    expect(card.applicationUrl).toBe('https://apply.bank.test/x?c=%7BclickId%7D&u=%7BexternalUserId%7D');

    const [row] = await clickRows(userId);
    expect(row).toMatchObject({
      id: clickId,
      offer_id: card.offerId,
      offer_version: 1,
      source: 'dashboard',
      metadata: { page: 'offers', position: 2 },
    });
    expect(new Date(row?.clicked_at as Date).toISOString()).toBe(clickedAt);
    expect(new Date(row?.recorded_at as Date).toISOString()).toBe(res.body.data.recordedAt);

    const record = await clickRecord(clickId);
    expect(record.status).toBe(200);
    expect(record.body.data).toEqual({
      clickId,
      offerId: card.offerId,
      offerVersion: 1,
      userId,
      externalUserId,
      clickedAt,
      stage: 'clicked',
      outcomes: [],
    });

    const events = await eventsOf('offer.clicked', userId);
    expect(events.map((e) => e.data)).toEqual([
      {
        userId,
        externalUserId,
        offerId: card.offerId,
        offerType: 'credit_card',
        provider: 'Maple Bank',
        clickId,
        offerVersion: 1,
      },
    ]);
  });

  it('keeps the version each click saw as the offer changes, and fills the URL of the version clicked', async () => {
    const offer = await createOffer({ name: 'Maple Changing Card' });
    const userId = await enrolActiveUser(app, await tok(), { externalUserId: 'version-watcher' });
    const first = await click(userId, offer.offerId);
    expect(first.body.data.offerVersion).toBe(1);

    const changed = await app.request('PATCH', `/v1/offers/${offer.offerId}`, {
      token: await tok(),
      body: { applicationUrl: 'https://apply.bank.test/v2/{clickId}?who={externalUserId}&from=maple' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.version).toBe(2);
    app.clock.advance(1000);
    const second = await click(userId, offer.offerId);
    expect(second.status).toBe(201);
    expect(second.body.data.offerVersion).toBe(2);
    expect(second.body.data.applicationUrl).toBe(
      `https://apply.bank.test/v2/${second.body.data.clickId}?who=version-watcher&from=maple`,
    );

    expect((await clickRecord(first.body.data.clickId)).body.data.offerVersion).toBe(1);
    expect((await clickRecord(second.body.data.clickId)).body.data.offerVersion).toBe(2);
    const events = await eventsOf('offer.clicked', userId);
    expect(events.map((e) => [e.data.clickId, e.data.offerVersion])).toEqual([
      [first.body.data.clickId, 1],
      [second.body.data.clickId, 2],
    ]);
  });

  it('leads a sample offer (a .example host) to the sandbox landing page with the click id', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const res = await click(userId, sample.offerId);
    expect(res.status).toBe(201);
    expect(res.body.data.applicationUrl).toBe(`${app.url}/sandbox/apply/${sample.offerId}?clickId=${res.body.data.clickId}`);
  });

  it('takes an empty body: the click time is when the request arrives', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const res = await click(userId, card.offerId);
    expect(res.status).toBe(201);
    const [row] = await clickRows(userId);
    expect(row).toMatchObject({ source: null, metadata: null, offer_version: 1 });
    expect(new Date(row?.clicked_at as Date).toISOString()).toBe(app.clock.now().toISOString());
    expect((await clickRecord(res.body.data.clickId)).body.data.clickedAt).toBe(app.clock.now().toISOString());
  });

  it('accepts a client clock a little ahead, refuses a timestamp far in the future or past (400 timestamp)', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const at = (ms: number) => new Date(app.clock.now().getTime() + ms).toISOString();
    expect((await click(userId, card.offerId, { timestamp: at(4 * 60_000) })).status).toBe(201);
    expect((await click(userId, card.offerId, { timestamp: at(-29 * 24 * 3600_000) })).status).toBe(201);
    for (const timestamp of [at(6 * 60_000), at(-31 * 24 * 3600_000)]) {
      const res = await click(userId, card.offerId, { timestamp });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ field: 'timestamp', message: expect.any(String) }]);
    }
    const bad = await click(userId, card.offerId, { timestamp: 'yesterday', metadata: { position: -1 }, colour: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'colour',
      'metadata.position',
      'timestamp',
    ]);
    expect(await clickRows(userId)).toHaveLength(2);
    expect(await eventsOf('offer.clicked', userId)).toHaveLength(2);
  });

  it('answers 404 for an offer the user cannot see: unknown, draft, paused, archived, not started, expired, another client’s', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const draft = await createOffer({ name: 'Maple Draft Card', status: 'draft' });
    const paused = await createOffer({ name: 'Maple Paused Card' });
    const archived = await createOffer({ name: 'Maple Archived Card' });
    for (const [offer, verb] of [
      [paused, 'pause'],
      [archived, 'archive'],
    ] as const) {
      expect((await app.request('POST', `/v1/offers/${offer.offerId}/${verb}`, { token: await tok() })).status).toBe(200);
    }
    const later = await createOffer({
      name: 'Maple Spring Card',
      startsAt: new Date(app.clock.now().getTime() + 7 * 86_400_000).toISOString(),
    });
    const ending = await createOffer({
      name: 'Maple Ending Card',
      expiresAt: new Date(app.clock.now().getTime() + 3600_000).toISOString(),
    });
    const foreign = await createOffer({ name: 'Birch Card' }, await app.createClient({ name: 'Birch Credit Union' }));

    const refused = async (offerId: string, why: string) => {
      const res = await click(userId, offerId);
      expect(res.status, why).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    };
    for (const [offerId, why] of [
      ['off_doesNotExist1', 'unknown'],
      [draft.offerId, 'draft'],
      [paused.offerId, 'paused'],
      [archived.offerId, 'archived'],
      [later.offerId, 'not started'],
      [foreign.offerId, 'another client’s'],
    ]) {
      await refused(offerId as string, why as string);
    }
    expect((await click(userId, ending.offerId)).status).toBe(201);
    const started = app.clock.now();
    try {
      app.clock.advance(2 * 3600_000);
      await refused(ending.offerId, 'expired');
    } finally {
      app.clock.set(started);
    }

    const malformed = await click(userId, 'offer-1');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.map((d: { field: string }) => d.field)).toEqual(['path.offerId']);
    expect((await clickRows(userId)).map((r) => r.offer_id)).toEqual([ending.offerId]);
    expect((await eventsOf('offer.clicked', userId)).map((e) => e.data.offerId)).toEqual([ending.offerId]);
  });

  it('counts a retried click once with the same Idempotency-Key, and replays the response', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const headers = { 'idempotency-key': `click-${userId}` };
    const body = { source: 'email' };
    const first = await click(userId, card.offerId, body, undefined, headers);
    app.clock.advance(1000);
    const retry = await click(userId, card.offerId, body, undefined, headers);
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    const changed = await click(userId, card.offerId, { source: 'sms' }, undefined, headers);
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await clickRows(userId)).toHaveLength(1);
    expect(await eventsOf('offer.clicked', userId)).toHaveLength(1);

    const another = await click(userId, card.offerId, body, undefined, { 'idempotency-key': `click-${userId}-2` });
    expect(another.status).toBe(201);
    expect(another.body.data.clickId).not.toBe(first.body.data.clickId);
    expect(await clickRows(userId)).toHaveLength(2);
  });

  it('refuses users who cannot see offers: not verified (403), frozen (403), another client’s (404)', async () => {
    const pending = await enrolUser(app, await tok());
    const notEnrolled = await click(pending, card.offerId);
    expect(notEnrolled.status).toBe(403);
    expect(notEnrolled.body.error.code).toBe('USER_NOT_ENROLLED');

    const frozen = await enrolActiveUser(app, await tok(), { ssn: '0000' });
    const refused = await click(frozen, card.offerId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CREDIT_FROZEN');
    expect(await clickRows(frozen)).toHaveLength(0);

    const userId = await enrolActiveUser(app, await tok());
    const stranger = await click(userId, card.offerId, undefined, await app.token(await app.createClient()));
    expect(stranger.status).toBe(404);
    expect(await clickRows(userId)).toHaveLength(0);
    for (const id of [pending, frozen, userId]) expect(await eventsOf('offer.clicked', id)).toEqual([]);
  });

  it('takes a user token for its own user only, and needs the offers scope', async () => {
    const mine = await enrolActiveUser(app, await tok(), { externalUserId: 'click-self-1' });
    const theirs = await enrolActiveUser(app, await tok(), { externalUserId: 'click-self-2' });
    const userToken = await app.userToken(await tok(), 'click-self-1');
    const own = await click(mine, card.offerId, { source: 'widget' }, userToken);
    expect(own.status).toBe(201);
    expect(own.body.data.applicationUrl).toBe(`https://apply.bank.test/x?c=${own.body.data.clickId}&u=click-self-1`);
    expect((await click(theirs, card.offerId, { source: 'widget' }, userToken)).status).toBe(404);

    const noOffers = await click(mine, card.offerId, undefined, await app.token(client, 'read write'));
    expect(noOffers.status).toBe(403);
    expect(noOffers.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await app.request('POST', `/v1/users/${mine}/offers/${card.offerId}/click`)).status).toBe(401);
    expect(await clickRows(mine)).toHaveLength(1);
    expect(await clickRows(theirs)).toHaveLength(0);
  });

  it('keeps a click to its client: another client reads no record of it', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const { clickId } = (await click(userId, card.offerId)).body.data;
    const other = await clickRecord(clickId, await app.token(await app.createClient()));
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('NOT_FOUND');
  });
});

describe('POST /v1/sandbox/users/{userId}/offers/{offerId}/convert', () => {
  it('answers 404 when the user has not clicked the offer', async () => {
    const userId = await enrolActiveUser(app, await tok());
    await click(userId, sample.offerId);
    const res = await convert(userId, card.offerId);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    expect((await convert(userId, 'off_doesNotExist1')).status).toBe(404);
    expect(await eventsOf('offer.converted', userId)).toEqual([]);
  });

  it('funds the latest click for the customer’s tier lower limit and emits offer.converted; once per click', async () => {
    const externalUserId = 'converter-1';
    const userId = await enrolActiveUser(app, await tok(), { externalUserId });
    const score = (await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await tok() })).body.data.score;
    const tier = card.tiers.find((t) => score >= t.minScore && score <= t.maxScore);
    const amount = tier?.creditLimit?.min;
    expect(amount).toEqual(expect.any(Number));

    const older = await click(userId, card.offerId);
    app.clock.advance(60_000);
    const latest = await click(userId, card.offerId);
    app.clock.advance(60_000);
    const convertedAt = app.clock.now().toISOString();

    const res = await convert(userId, card.offerId);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ userId, offerId: card.offerId, clickId: latest.body.data.clickId, convertedAt });
    expect(res.body.data.clickId).not.toBe(older.body.data.clickId);

    const record = await clickRecord(latest.body.data.clickId);
    expect(record.body.data).toMatchObject({
      stage: 'funded',
      offerVersion: 1,
      outcomes: [{ stage: 'funded', amount, occurredAt: convertedAt, recordedAt: convertedAt }],
    });
    expect((await clickRecord(older.body.data.clickId)).body.data).toMatchObject({ stage: 'clicked', outcomes: [] });

    const events = await eventsOf('offer.converted', userId);
    expect(events.map((e) => e.data)).toEqual([
      {
        userId,
        externalUserId,
        offerId: card.offerId,
        offerType: 'credit_card',
        provider: 'Maple Bank',
        clickId: latest.body.data.clickId,
        offerVersion: 1,
        stage: 'funded',
        amount,
        convertedAt,
      },
    ]);

    app.clock.advance(60_000);
    const again = await convert(userId, card.offerId);
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(res.body.data);
    expect(await eventsOf('offer.converted', userId)).toHaveLength(1);

    // A new click can convert again, on its own.
    const fresh = await click(userId, card.offerId);
    const second = await convert(userId, card.offerId);
    expect(second.body.data.clickId).toBe(fresh.body.data.clickId);
    expect((await eventsOf('offer.converted', userId)).map((e) => e.data.clickId)).toEqual([
      latest.body.data.clickId,
      fresh.body.data.clickId,
    ]);
  });

  it('needs the admin scope and hides another client’s user', async () => {
    const userId = await enrolActiveUser(app, await tok());
    const { clickId } = (await click(userId, card.offerId)).body.data;
    const offersOnly = await convert(userId, card.offerId, await app.token(client, 'offers write read'));
    expect(offersOnly.status).toBe(403);
    expect(offersOnly.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await convert(userId, card.offerId, await app.token(await app.createClient()))).status).toBe(404);
    expect((await clickRecord(clickId)).body.data).toMatchObject({ stage: 'clicked', outcomes: [] });
    expect(await eventsOf('offer.converted', userId)).toEqual([]);
  });
});
