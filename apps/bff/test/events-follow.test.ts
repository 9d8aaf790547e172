import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../src/outbox/outbox.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { usingPostgres } from './helpers/test-db.ts';

/**
 * Following a client's events through `GET /v1/events`: the recorded order (`sort=recorded`, `after`), which a test
 * clock's dates and shared `createdAt`s do not disturb, and the long poll (`wait`) that `npx credit listen` makes.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Listed = { data: { id: string; type: string; createdAt: string; data: { userId?: string } }[]; pagination: any };

const list = async (client: TestClient, query: string): Promise<Listed> => {
  const res = await app.request('GET', `/v1/events${query}`, { token: await app.currentToken(client) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/**
 * The latest event in the recorded order, once listed there: on PostgreSQL an event is listed in that order once every
 * transaction begun before it has ended, and the suite's other files write to the same server meanwhile.
 */
const latestRecorded = async (client: TestClient, count = 1): Promise<string> => {
  await expect.poll(async () => (await list(client, '?sort=recorded')).data.length, { timeout: 10_000 }).toBe(count);
  return (await list(client, '?sort=-recorded&limit=1')).data[0]?.id as string;
};

const enrol = async (client: TestClient) => {
  const res = await app.request('POST', '/v1/users/enroll', { token: await app.currentToken(client), body: enrollment() });
  expect(res.status).toBe(201);
  return res.body.data.userId as string;
};

describe('GET /v1/events in the recorded order', () => {
  it('lists events in the order they were recorded, whatever their createdAt, and follows them with after', async () => {
    const client = await app.createClient();
    const first = await enrol(client);
    // A clock set back (as a test clock dates events at its own time): the next events are dated before the first.
    app.clock.advance(-60 * 60_000);
    const second = await enrol(client);
    app.clock.advance(1000);
    const third = await enrol(client);
    app.clock.advance(60 * 60_000);
    await latestRecorded(client, 3);

    const byDate = await list(client, '');
    expect(byDate.data.map((e) => e.data.userId)).toEqual([first, third, second]);
    const recorded = await list(client, '?sort=recorded');
    expect(recorded.data.map((e) => e.data.userId)).toEqual([first, second, third]);
    expect(recorded.pagination).toMatchObject({ total: 3, hasMore: false, nextCursor: null });
    expect((await list(client, '?sort=-recorded')).data.map((e) => e.data.userId)).toEqual([third, second, first]);
    // The envelope is the one GET /v1/events/{id} answers, whichever the order.
    const [firstEvent, secondEvent, thirdEvent] = recorded.data;
    const one = await app.request('GET', `/v1/events/${secondEvent?.id}`, { token: await app.currentToken(client) });
    expect(one.body.data).toEqual(secondEvent);

    // After the first: the second, although it is dated an hour before (a createdAt cursor would skip it).
    const next = await list(client, `?after=${firstEvent?.id}`);
    expect(next.data.map((e) => e.id)).toEqual([secondEvent?.id, thirdEvent?.id]);
    expect(next.pagination.total).toBe(2);
    expect((await list(client, `?after=${thirdEvent?.id}`)).data).toEqual([]);

    // Page by page, the cursor carries the position: the same events, each once.
    const page1 = await list(client, '?sort=recorded&limit=2');
    expect(page1.pagination).toMatchObject({ hasMore: true, total: 3 });
    const page2 = await list(client, `?sort=recorded&limit=2&cursor=${encodeURIComponent(page1.pagination.nextCursor)}`);
    expect([...page1.data, ...page2.data].map((e) => e.id)).toEqual(recorded.data.map((e) => e.id));
    // A cursor of one order does not open another.
    const wrongOrder = await app.request('GET', `/v1/events?sort=-recorded&cursor=${page1.pagination.nextCursor}`, {
      token: await app.currentToken(client),
    });
    expect(wrongOrder.status).toBe(400);
    expect(wrongOrder.body.error.details[0].field).toBe('cursor');

    // Filters apply as in the default order; `-recorded&limit=1` is the latest recorded event.
    expect((await list(client, `?sort=recorded&userId=${second}`)).data.map((e) => e.id)).toEqual([secondEvent?.id]);
    expect((await list(client, '?sort=-recorded&limit=1')).data.map((e) => e.id)).toEqual([thirdEvent?.id]);
  });

  it('keeps the order of the events one transaction records, which share a createdAt', async () => {
    const client = await app.createClient();
    const at = app.clock.now();
    const ids = await app.db.transaction(async (tx) => {
      const recorded: string[] = [];
      for (let n = 0; n < 5; n++) {
        const data = { userId: `usr_shared${n}AtOnce000`, externalUserId: `cust-${n}`, deletedAt: at.toISOString() };
        recorded.push(
          (await recordEvent(tx, app.ctx.ids, { clientId: client.id, type: 'user.deleted', data, createdAt: at })).id,
        );
      }
      return recorded;
    });
    await latestRecorded(client, 5);
    expect((await list(client, '?sort=recorded')).data.map((e) => e.id)).toEqual(ids);
    expect((await list(client, `?after=${ids[1]}&limit=2`)).data.map((e) => e.id)).toEqual(ids.slice(2, 4));
  });

  it('refuses positions that are not the caller’s events, and after or wait with another order', async () => {
    const mine = await app.createClient();
    const theirs = await app.createClient();
    await enrol(theirs);
    const theirEvent = await latestRecorded(theirs);
    const token = await app.currentToken(mine);
    for (const [query, field] of [
      [`?after=${theirEvent}`, 'query.after'],
      ['?after=evt_doesNotExist0001', 'query.after'],
      ['?after=usr_notAnEvent00001', 'query.after'],
      ['?after=evt_doesNotExist0001&sort=-createdAt', 'query.after'],
      ['?sort=-recorded&wait=1', 'query.wait'],
      ['?wait=21', 'query.wait'],
      ['?wait=-1', 'query.wait'],
      ['?wait=1.5', 'query.wait'],
      ['?sort=createdAt', 'query.sort'],
    ] as const) {
      const res = await app.request('GET', `/v1/events${query}`, { token });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
  });
});

describe('GET /v1/events?wait= (long poll)', () => {
  it('holds an empty answer until an event is recorded, then answers it at once', async () => {
    const client = await app.createClient();
    await enrol(client);
    const latest = await latestRecorded(client);
    const started = performance.now();
    const held = list(client, `?after=${latest}&wait=10`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const user = await enrol(client);
    const answer = await held;
    expect(answer.data.map((e) => [e.type, e.data.userId])).toEqual([['user.enrolled', user]]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('answers an empty page after wait seconds, and at once without wait', async () => {
    const client = await app.createClient();
    await enrol(client);
    const latest = await latestRecorded(client);
    let started = performance.now();
    expect((await list(client, `?after=${latest}`)).data).toEqual([]);
    expect(performance.now() - started).toBeLessThan(900);
    started = performance.now();
    const empty = await list(client, `?after=${latest}&wait=1`);
    expect(empty.data).toEqual([]);
    expect(empty.pagination).toMatchObject({ hasMore: false, total: 0 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    // Another client's events do not end the wait.
    const other = await app.createClient();
    started = performance.now();
    const held = list(client, `?after=${latest}&wait=2`);
    await enrol(other);
    expect((await held).data).toEqual([]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it('follows a stream of events with a waiting poll: each once, in order', async () => {
    const client = await app.createClient();
    const seen: string[] = [];
    let after: string | undefined;
    let stop = false;
    const follower = (async () => {
      while (!stop) {
        const page = await list(client, after ? `?after=${after}&wait=2` : '?sort=recorded&wait=2');
        for (const event of page.data) seen.push(event.data.userId as string);
        after = page.data.at(-1)?.id ?? after;
      }
    })();
    const users: string[] = [];
    for (let i = 0; i < 8; i++) users.push(await enrol(client));
    await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(users.length);
    stop = true;
    await follower;
    expect(seen).toEqual(users);
  });
});

describe.skipIf(!usingPostgres)('GET /v1/events in the recorded order, with transactions in flight', () => {
  it('never answers an event past one whose transaction is still open, so a follower misses neither', async () => {
    const client = await app.createClient();
    const event = (n: number) => ({
      clientId: client.id,
      type: 'user.deleted' as const,
      data: { userId: `usr_inFlight${n}000000000`, externalUserId: `cust-${n}`, deletedAt: app.clock.now().toISOString() },
      createdAt: app.clock.now(),
    });
    let commitFirst = () => {};
    const firstOpen = new Promise<void>((resolve) => {
      commitFirst = resolve;
    });
    let firstRecorded = () => {};
    const recorded = new Promise<void>((resolve) => {
      firstRecorded = resolve;
    });
    // The first transaction records its event and stays open while a later one commits.
    const first = app.db.transaction(async (tx) => {
      const stored = await recordEvent(tx, app.ctx.ids, event(1));
      firstRecorded();
      await firstOpen;
      return stored.id;
    });
    await recorded;
    const second = await app.db.transaction(async (tx) => (await recordEvent(tx, app.ctx.ids, event(2))).id);
    expect((await list(client, '?sort=recorded')).data.map((e) => e.id)).toEqual([]);
    const held = list(client, '?sort=recorded&wait=5');
    commitFirst();
    const firstId = await first;
    // Woken by the first commit (or its re-check): both, in the order they were recorded.
    const answer = await held;
    const all = answer.data.length === 2 ? answer : await list(client, '?sort=recorded');
    expect(all.data.map((e) => e.id)).toEqual([firstId, second]);
  });
});
