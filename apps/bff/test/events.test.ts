import { EVENT_ENVELOPE_SCHEMAS, type TEventType } from '@credit/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/modules/webhooks/dispatcher.ts';
import { enrollment, type TestApp, type TestClient } from './helpers/harness.ts';
import type { Receiver } from './helpers/webhook-receiver.ts';
import { startWebhookWorld, type WebhookWorld } from './helpers/webhook-world.ts';

const DAY = 24 * 60 * 60_000;

let world: WebhookWorld;
let app: TestApp;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  world = await startWebhookWorld();
  ({ app, receiver, dispatcher } = world);
});
afterAll(() => world.close());

const enrol = async (client: TestClient) => {
  const res = await app.request('POST', '/v1/users/enroll', { token: await app.currentToken(client), body: enrollment() });
  expect(res.status).toBe(201);
  return res.body.data.userId as string;
};

const list = async (client: TestClient, query = '') => {
  const res = await app.request('GET', `/v1/events${query}`, { token: await app.currentToken(client) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: { id: string; type: TEventType; createdAt: string; data: { userId?: string } }[]; pagination: any };
};

describe('GET /v1/events', () => {
  it('lists the client’s events newest first, exactly as delivered, filtered by type and user, page by page', async () => {
    const client = await app.createClient();
    const token = await app.currentToken(client);
    const hook = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: `${receiver.url}/${client.id}`, events: ['user.enrolled', 'user.deleted'], secret: 'whsec_events_0123456789' },
    });
    expect(hook.status).toBe(201);
    const users: string[] = [];
    for (let i = 0; i < 3; i++) {
      users.push(await enrol(client));
      app.clock.advance(1000);
    }
    expect((await app.request('DELETE', `/v1/users/${users[0]}`, { token })).status).toBe(200);
    await dispatcher.runOnce();

    const all = await list(client);
    expect(all.data.map((e) => e.type)).toEqual(['user.deleted', 'user.enrolled', 'user.enrolled', 'user.enrolled']);
    expect(all.data.slice(1).map((e) => e.data.userId)).toEqual([users[2], users[1], users[0]]);
    expect(all.pagination).toMatchObject({ total: 4, hasMore: false, nextCursor: null });
    for (const event of all.data) expect(EVENT_ENVELOPE_SCHEMAS[event.type].safeParse(event).success).toBe(true);
    // The same bytes the receiver got.
    for (const delivery of receiver.received.filter((d) => all.data.some((e) => e.id === d.body.id))) {
      const listed = all.data.find((e) => e.id === delivery.body.id);
      expect(JSON.stringify(listed)).toBe(delivery.raw);
      const one = await app.request('GET', `/v1/events/${delivery.body.id}`, { token });
      expect(JSON.stringify(one.body.data)).toBe(delivery.raw);
    }

    expect((await list(client, '?type=user.deleted')).data.map((e) => e.data.userId)).toEqual([users[0]]);
    expect((await list(client, `?userId=${users[0]}`)).data.map((e) => e.type)).toEqual(['user.deleted', 'user.enrolled']);
    expect((await list(client, `?type=user.enrolled&userId=${users[1]}`)).pagination.total).toBe(1);

    const first = await list(client, '?limit=3');
    expect(first.pagination).toMatchObject({ hasMore: true, total: 4 });
    const second = await list(client, `?limit=3&cursor=${encodeURIComponent(first.pagination.nextCursor)}`);
    expect([...first.data, ...second.data].map((e) => e.id)).toEqual(all.data.map((e) => e.id));
    expect(second.pagination.hasMore).toBe(false);
    // A cursor is bound to its list: another client cannot use it.
    const other = await app.createClient();
    const foreign = await app.request('GET', `/v1/events?limit=3&cursor=${encodeURIComponent(first.pagination.nextCursor)}`, {
      token: await app.currentToken(other),
    });
    expect(foreign.status).toBe(400);
  });

  it('shows a client only its own events, and only those of the last 30 days', async () => {
    const mine = await app.createClient();
    const theirs = await app.createClient();
    await enrol(mine);
    const theirUser = await enrol(theirs);
    const theirEvents = await list(theirs);
    expect(theirEvents.data.map((e) => e.data.userId)).toEqual([theirUser]);
    const theirId = theirEvents.data[0]?.id as string;
    const myList = await list(mine);
    expect(myList.data.some((e) => e.id === theirId)).toBe(false);
    expect((await list(mine, `?userId=${theirUser}`)).pagination.total).toBe(0);
    const token = await app.currentToken(mine);
    const foreign = await app.request('GET', `/v1/events/${theirId}`, { token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await app.request('GET', '/v1/events/evt_doesNotExist0001', { token })).status).toBe(404);

    const myId = myList.data[0]?.id as string;
    app.clock.advance(30 * DAY + 1000);
    expect((await list(mine)).pagination.total).toBe(0);
    expect((await app.request('GET', `/v1/events/${myId}`, { token: await app.currentToken(mine) })).status).toBe(404);
  });

  it('needs the webhooks scope', async () => {
    const client = await app.createClient();
    const readOnly = await app.token(client, 'read');
    const res = await app.request('GET', '/v1/events', { token: readOnly });
    expect(res.status).toBe(403);
  });
});
