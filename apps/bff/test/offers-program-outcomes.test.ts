import type { TCreateOfferInput } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import type { ApiResponse, TestApp, TestClient } from './helpers/harness.ts';
import type { Receiver } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

let world: WebhookWorld;
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;
let bank: TestClient;
let cardId: string;

interface ConvertedEvent {
  id: string;
  type: 'offer.converted';
  createdAt: string;
  data: { clickId: string; stage: string; amount: number | null; offerVersion: number | null } & Record<string, unknown>;
}

const admin = () => app.currentToken(bank);

const CARD: TCreateOfferInput = {
  type: 'credit_card',
  name: 'Outcome Card',
  description: 'A card whose applications are followed to the end.',
  aprType: 'variable',
  tiers: [
    { minScore: 300, maxScore: 679, apr: 27.5, creditLimit: { min: 500, max: 2500 } },
    { minScore: 680, maxScore: 850, apr: 19.5, creditLimit: { min: 3000, max: 15000 } },
  ],
  applicationUrl: 'https://apply.outcome-bank.test/cards/apply?ref={clickId}&customer={externalUserId}',
  status: 'active',
};

const customer = async (externalUserId: string) => ({
  externalUserId,
  userId: await enrolActiveUser(app, await admin(), { externalUserId }),
});

const click = async (userId: string, offerId = cardId) => {
  const res = await app.request('POST', `/v1/users/${userId}/offers/${offerId}/click`, { token: await admin() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { clickId: string; offerVersion: number; applicationUrl: string };
};

/** Each outcome a second after the one before, so the events list (newest first) has them in the order recorded. */
const record = async (clickId: string, body: unknown, options: { token?: string; headers?: Record<string, string> } = {}) => {
  app.clock.advance(1000);
  return app.request('POST', `/v1/offers/clicks/${clickId}/outcomes`, {
    token: options.token ?? (await admin()),
    body,
    headers: options.headers,
  });
};

const getClick = async (clickId: string, token?: string) =>
  app.request('GET', `/v1/offers/clicks/${clickId}`, { token: token ?? (await admin()) });

/** The bank's `offer.converted` events about one click, oldest first, as GET /v1/events lists them. */
const converted = async (clickId: string): Promise<ConvertedEvent[]> => {
  const res: ApiResponse = await app.request('GET', '/v1/events?type=offer.converted&limit=100', { token: await admin() });
  expect(res.status).toBe(200);
  return (res.body.data as ConvertedEvent[]).filter((e) => e.data.clickId === clickId).reverse();
};

beforeAll(async () => {
  world = await startWebhookWorld();
  ({ app, receiver, dispatcher } = world);
  bank = await app.createClient({ name: 'Outcome Bank' });
  const hook = await app.request('POST', '/v1/webhooks', {
    token: await admin(),
    body: {
      url: `${receiver.url}/${bank.id}`,
      events: ['offer.clicked', 'offer.converted'],
      secret: 'whsec_outcomes_0123456789abcdef',
    },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  const created = await app.request('POST', '/v1/offers', { token: await admin(), body: CARD });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  cardId = created.body.data.offerId;
});
afterAll(() => world.close());

describe('outcomes of a click', () => {
  it('click → applied → approved → funded: one offer.converted per new stage, delivered to the webhook', async () => {
    const { userId, externalUserId } = await customer('outcome customer/1');
    const clicked = await click(userId);
    expect(clicked.offerVersion).toBe(1);
    expect(clicked.applicationUrl).toBe(
      `https://apply.outcome-bank.test/cards/apply?ref=${clicked.clickId}&customer=${encodeURIComponent(externalUserId)}`,
    );
    const clickedAt = app.clock.now().toISOString();
    const fresh = await getClick(clicked.clickId);
    expect(fresh.body.data).toEqual({
      clickId: clicked.clickId,
      offerId: cardId,
      offerVersion: 1,
      userId,
      externalUserId,
      clickedAt,
      stage: 'clicked',
      outcomes: [],
    });

    // The offer changes after the click: the click and its outcomes keep the version the customer saw.
    const edited = await app.request('PATCH', `/v1/offers/${cardId}`, {
      token: await admin(),
      body: { name: 'Outcome Card II' },
    });
    expect(edited.body.data.version).toBe(2);

    const steps: [string, number | undefined][] = [
      ['applied', undefined],
      ['approved', 12000],
      ['funded', 11500],
    ];
    const answers: ApiResponse[] = [];
    for (const [stage, amount] of steps) {
      app.clock.advance(3_600_000);
      const res = await record(clicked.clickId, amount === undefined ? { stage } : { stage, amount });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      answers.push(res);
      expect(res.body.data).toMatchObject({ clickId: clicked.clickId, offerVersion: 1, stage });
      expect(res.body.data.outcomes.at(-1)).toEqual({
        stage,
        amount: amount ?? null,
        occurredAt: app.clock.now().toISOString(),
        recordedAt: app.clock.now().toISOString(),
      });
    }
    const final = answers.at(-1)?.body.data;
    expect(final.outcomes.map((o: { stage: string }) => o.stage)).toEqual(['applied', 'approved', 'funded']);
    expect((await getClick(clicked.clickId)).body.data).toEqual(final);

    const events = await converted(clicked.clickId);
    expect(events.map((e) => e.data)).toEqual(
      steps.map(([stage, amount], i) => ({
        userId,
        externalUserId,
        offerId: cardId,
        offerType: 'credit_card',
        provider: 'Outcome Bank',
        clickId: clicked.clickId,
        offerVersion: 1,
        stage,
        amount: amount ?? null,
        convertedAt: final.outcomes[i].occurredAt,
      })),
    );

    // A real HTTPS receiver gets the same three events, byte for byte as listed.
    await dispatcher.runOnce();
    const delivered = receiver.received.filter(
      (d) => d.body.type === 'offer.converted' && d.body.data.clickId === clicked.clickId,
    );
    expect(delivered.map((d) => d.body.id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const delivery of delivered) {
      expect(delivery.raw).toBe(JSON.stringify(events.find((e) => e.id === delivery.body.id)));
    }

    // A click after the edit sees version 2.
    expect((await click(userId)).offerVersion).toBe(2);
  });

  it('the same stage again answers the same record and emits nothing', async () => {
    const { userId } = await customer('outcome-repeat');
    const { clickId } = await click(userId);
    const first = await record(clickId, { stage: 'applied' });
    app.clock.advance(60_000);
    const again = await record(clickId, { stage: 'applied' });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    const funded = await record(clickId, { stage: 'funded', amount: 4000 });
    app.clock.advance(60_000);
    expect((await record(clickId, { stage: 'funded', amount: 4000 })).body.data).toEqual(funded.body.data);
    // A funded application skipped approved: it is approved all the same, and told once per stage recorded.
    expect(funded.body.data.stage).toBe('funded');
    expect((await converted(clickId)).map((e) => e.data.stage)).toEqual(['applied', 'funded']);
  });

  it('moves forward only: an earlier stage, or declined after approved, is 409 and changes nothing', async () => {
    const { userId } = await customer('outcome-backwards');
    const approved = await click(userId);
    const answer = await record(approved.clickId, { stage: 'approved' });
    expect(answer.status).toBe(200);
    for (const body of [{ stage: 'applied' }, { stage: 'declined' }]) {
      const res = await record(approved.clickId, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.error.code).toBe('OFFER_STATE_CONFLICT');
    }
    expect((await getClick(approved.clickId)).body.data).toEqual(answer.body.data);
    expect((await converted(approved.clickId)).map((e) => e.data.stage)).toEqual(['approved']);

    const declined = await click(userId);
    await record(declined.clickId, { stage: 'applied' });
    expect((await record(declined.clickId, { stage: 'declined' })).status).toBe(200);
    for (const body of [{ stage: 'approved' }, { stage: 'funded', amount: 1000 }]) {
      const res = await record(declined.clickId, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.error.code).toBe('OFFER_STATE_CONFLICT');
    }
    // A stage already recorded, sent again late, is a retry: the record as it is.
    const retried = await record(declined.clickId, { stage: 'applied' });
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual((await getClick(declined.clickId)).body.data);
    expect(retried.body.data.stage).toBe('declined');
    expect((await converted(declined.clickId)).map((e) => e.data.stage)).toEqual(['applied', 'declined']);
  });

  it('wants an amount with funded and none with applied or declined (400 naming amount)', async () => {
    const { userId } = await customer('outcome-amounts');
    const { clickId } = await click(userId);
    for (const body of [{ stage: 'funded' }, { stage: 'applied', amount: 5000 }, { stage: 'declined', amount: 5000 }]) {
      const res = await record(clickId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['amount']);
    }
    const future = new Date(app.clock.now().getTime() + 10 * 60_000).toISOString();
    const ahead = await record(clickId, { stage: 'applied', occurredAt: future });
    expect(ahead.status).toBe(400);
    expect(ahead.body.error.details.map((d: { field: string }) => d.field)).toEqual(['occurredAt']);
    for (const [body, field] of [
      [{ stage: 'shipped' }, 'stage'],
      [{ stage: 'funded', amount: -1 }, 'amount'],
      [{ stage: 'applied', colour: 'red' }, 'colour'],
    ] as const) {
      const res = await record(clickId, body);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toEqual([field]);
    }
    expect((await getClick(clickId)).body.data).toMatchObject({ stage: 'clicked', outcomes: [] });
    expect(await converted(clickId)).toEqual([]);
    // Nothing happens at the bank before the click it came from.
    const beforeClick = new Date(app.clock.now().getTime() - 86_400_000).toISOString();
    const tooEarly = await record(clickId, { stage: 'applied', occurredAt: beforeClick });
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body.error.details.map((d: { field: string }) => d.field)).toEqual(['occurredAt']);
    // An amount approved is taken; a stage that happened earlier at the bank keeps its time.
    app.clock.set(new Date(app.clock.now().getTime() + 3 * 86_400_000).toISOString());
    const earlier = new Date(app.clock.now().getTime() - 2 * 86_400_000).toISOString();
    const approved = await record(clickId, { stage: 'approved', amount: 2500, occurredAt: earlier });
    expect(approved.body.data.outcomes).toEqual([
      { stage: 'approved', amount: 2500, occurredAt: earlier, recordedAt: app.clock.now().toISOString() },
    ]);
    expect((await converted(clickId)).map((e) => e.data.convertedAt)).toEqual([earlier]);
  });

  it('answers 404 for another client’s click, on a read and on an outcome, and records nothing', async () => {
    const { userId } = await customer('outcome-theirs');
    const { clickId } = await click(userId);
    const rival = await app.createClient({ name: 'Rival Bank' });
    const rivalToken = await app.token(rival);
    const read = await getClick(clickId, rivalToken);
    expect(read.status).toBe(404);
    expect(read.body.error.code).toBe('NOT_FOUND');
    const outcome = await record(clickId, { stage: 'funded', amount: 9000 }, { token: rivalToken });
    expect(outcome.status).toBe(404);
    expect(outcome.body.error.code).toBe('NOT_FOUND');
    expect((await getClick(clickId)).body.data).toMatchObject({ stage: 'clicked', outcomes: [] });
    expect(await converted(clickId)).toEqual([]);
    const rivalEvents = await app.request('GET', '/v1/events?type=offer.converted', { token: rivalToken });
    expect(rivalEvents.body.data).toEqual([]);

    expect((await getClick('clk_doesNotExist000001')).status).toBe(404);
    const malformed = await getClick('click-1');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.map((d: { field: string }) => d.field)).toEqual(['path.clickId']);
  });

  it('replays an outcome sent again with its Idempotency-Key; another body with the key is a 409', async () => {
    const { userId } = await customer('outcome-retry');
    const { clickId } = await click(userId);
    const headers = { 'idempotency-key': `outcome-${clickId}` };
    const first = await record(clickId, { stage: 'funded', amount: 3000 }, { headers });
    const retry = await record(clickId, { stage: 'funded', amount: 3000 }, { headers });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);
    const other = await record(clickId, { stage: 'funded', amount: 3500 }, { headers });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await converted(clickId)).map((e) => e.data.amount)).toEqual([3000]);
  });

  it('takes outcomes on an archived offer’s clicks', async () => {
    const { userId } = await customer('outcome-archived');
    const loan = await app.request('POST', '/v1/offers', {
      token: await admin(),
      body: { ...CARD, type: 'loan', name: 'Short-lived Loan', termMonths: 36 },
    });
    const { clickId, offerVersion } = await click(userId, loan.body.data.offerId);
    expect((await app.request('POST', `/v1/offers/${loan.body.data.offerId}/archive`, { token: await admin() })).status).toBe(
      200,
    );
    const funded = await record(clickId, { stage: 'funded', amount: 8000 });
    expect(funded.status, JSON.stringify(funded.body)).toBe(200);
    expect(funded.body.data).toMatchObject({ stage: 'funded', offerVersion });
    expect((await converted(clickId)).map((e) => [e.data.stage, e.data.offerType])).toEqual([['funded', 'loan']]);
  });
});

describe('POST /v1/sandbox/users/{userId}/offers/{offerId}/convert', () => {
  it('records funded on the latest click through the same path: the record, the event, the amount of the tier', async () => {
    const { userId, externalUserId } = await customer('outcome-sandbox');
    const older = await click(userId);
    app.clock.advance(60_000);
    const latest = await click(userId);
    app.clock.advance(60_000);
    const { score } = (await app.request('GET', `/v1/users/${userId}/credit-score`, { token: await admin() })).body.data;
    const tier = CARD.tiers.find((t) => score >= t.minScore && score <= t.maxScore);

    const res = await app.request('POST', `/v1/sandbox/users/${userId}/offers/${cardId}/convert`, { token: await admin() });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const now = app.clock.now().toISOString();
    expect(res.body.data).toEqual({ userId, offerId: cardId, clickId: latest.clickId, convertedAt: now });
    expect((await getClick(latest.clickId)).body.data).toMatchObject({
      stage: 'funded',
      offerVersion: latest.offerVersion,
      outcomes: [{ stage: 'funded', amount: tier?.creditLimit?.min, occurredAt: now, recordedAt: now }],
    });
    expect((await getClick(older.clickId)).body.data.stage).toBe('clicked');
    expect((await converted(latest.clickId)).map((e) => e.data)).toEqual([
      expect.objectContaining({ userId, externalUserId, stage: 'funded', amount: tier?.creditLimit?.min, convertedAt: now }),
    ]);

    // Converting again, or the bank then reporting funded, answers the same conversion and emits nothing.
    app.clock.advance(60_000);
    const again = await app.request('POST', `/v1/sandbox/users/${userId}/offers/${cardId}/convert`, { token: await admin() });
    expect(again.body.data).toEqual(res.body.data);
    expect((await record(latest.clickId, { stage: 'funded', amount: 1 })).body.data.outcomes).toHaveLength(1);
    expect(await converted(latest.clickId)).toHaveLength(1);
  });
});
