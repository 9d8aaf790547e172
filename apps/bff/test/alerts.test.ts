import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser, enrolUser } from './helpers/credit-users.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

interface ListedAlert {
  alertId: string;
  type: string;
  status: string;
  createdAt: string;
}

let app: TestApp;
let client: TestClient;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

/** Creates an alert through the sandbox helper a second after the previous one, so creation times differ. */
const createAlert = async (userId: string, type: string, t = token): Promise<ListedAlert> => {
  app.clock.advance(1000);
  const res = await app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token: t, body: { type } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

const list = (userId: string, query = '', t = token) =>
  app.request('GET', `/v1/users/${userId}/alerts${query ? `?${query}` : ''}`, { token: t });
const ids = (res: { body: { data: ListedAlert[] } }) => res.body.data.map((a) => a.alertId);
const markRead = (userId: string, alertId: string, body: unknown = { status: 'read' }, t = token) =>
  app.request('PATCH', `/v1/users/${userId}/alerts/${alertId}`, { token: t, body });

describe('listing alerts', () => {
  let userId: string;
  let created: ListedAlert[];
  beforeAll(async () => {
    userId = await enrolActiveUser(app, token);
    created = [];
    for (const type of ['new_inquiry', 'late_payment', 'fraud_alert', 'late_payment', 'high_utilization']) {
      created.push(await createAlert(userId, type));
    }
    expect((await markRead(userId, (created[1] as ListedAlert).alertId)).status).toBe(200);
  });
  const at = (i: number) => created[i] as ListedAlert;

  it('lists every alert newest first by default, with a total', async () => {
    const res = await list(userId);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([...created].reverse().map((a) => a.alertId));
    expect(res.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: 5 });
    expect(res.body.data[0]).toEqual({ ...at(4), status: 'unread' });
  });

  it('filters by status, type and creation window', async () => {
    const unread = await list(userId, 'status=unread');
    expect(ids(unread)).toEqual([at(4), at(3), at(2), at(0)].map((a) => a.alertId));
    expect(unread.body.pagination.total).toBe(4);
    expect(ids(await list(userId, 'status=read'))).toEqual([at(1).alertId]);
    expect((await list(userId, 'status=all')).body.pagination.total).toBe(5);
    expect(ids(await list(userId, 'type=late_payment'))).toEqual([at(3).alertId, at(1).alertId]);
    expect(ids(await list(userId, 'type=late_payment&status=unread'))).toEqual([at(3).alertId]);
    expect((await list(userId, 'type=address_change')).body).toMatchObject({ data: [], pagination: { total: 0 } });
    // createdAfter is inclusive, createdBefore exclusive.
    const window = await list(userId, `createdAfter=${at(1).createdAt}&createdBefore=${at(3).createdAt}`);
    expect(ids(window)).toEqual([at(2).alertId, at(1).alertId]);
    expect(window.body.pagination.total).toBe(2);
  });

  it('sorts oldest first on request and walks every page with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await list(userId, `sort=createdAt&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(5);
      seen.push(...ids(res));
      cursor = res.body.pagination.nextCursor;
      expect(res.body.pagination.hasMore).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(created.map((a) => a.alertId));

    const first = await list(userId, 'status=unread&limit=3');
    const rest = await list(userId, `status=unread&limit=3&cursor=${first.body.pagination.nextCursor}`);
    expect([...ids(first), ...ids(rest)]).toEqual([at(4), at(3), at(2), at(0)].map((a) => a.alertId));
    expect(rest.body.pagination).toMatchObject({ hasMore: false, nextCursor: null, total: 4 });
  });

  it('keeps alerts created in the same instant in a stable order across pages', async () => {
    const other = await enrolActiveUser(app, token);
    const same: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('POST', `/v1/sandbox/users/${other}/alerts`, { token, body: { type: 'new_account' } });
      same.push(res.body.data.alertId);
    }
    const first = await list(other, 'limit=2');
    const second = await list(other, `limit=2&cursor=${first.body.pagination.nextCursor}`);
    const walked = [...ids(first), ...ids(second)];
    expect(new Set(walked)).toEqual(new Set(same));
    expect(walked).toHaveLength(3);
  });

  it.each([
    ['status=maybe', 'query.status'],
    ['type=boat', 'query.type'],
    ['limit=101', 'query.limit'],
    ['limit=0', 'query.limit'],
    ['sort=foo', 'query.sort'],
    ['sort=-severity', 'query.sort'],
    ['createdAfter=yesterday', 'query.createdAfter'],
    ['colour=red', 'query.colour'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('rejects %s with 400 naming the field', async (query, field) => {
    const res = await list(userId, query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe(field);
  });

  it('refuses a cursor made for another sort order or tampered with', async () => {
    const first = await list(userId, 'limit=2&sort=createdAt');
    const res = await list(userId, `limit=2&cursor=${first.body.pagination.nextCursor}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('cursor');
    const forged = Buffer.from(JSON.stringify({ s: '-createdAt', v: ['not-a-date', 'alt_x'] })).toString('base64url');
    const tampered = await list(userId, `cursor=${forged}`);
    expect(tampered.status).toBe(400);
    expect(tampered.body.error.details[0].field).toBe('cursor');
  });
});

describe('marking an alert read', () => {
  let userId: string;
  beforeAll(async () => {
    userId = await enrolActiveUser(app, token);
  });

  it('answers every one of concurrent marks of one unread alert with the alert read, at one read time', async () => {
    const alert = await createAlert(userId, 'new_account');
    const answers = await Promise.all(Array.from({ length: 8 }, () => markRead(userId, alert.alertId)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body.data)))).toEqual(
      new Set([JSON.stringify({ ...alert, status: 'read', readAt: answers[0]?.body.data.readAt })]),
    );
  });

  it('answers 200 with the read alert, lists it as read, and accepts a repeat', async () => {
    const alert = await createAlert(userId, 'new_account');
    expect(alert.status).toBe('unread');
    const res = await markRead(userId, alert.alertId);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...alert, status: 'read' });
    expect(ids(await list(userId, 'status=read'))).toContain(alert.alertId);
    expect(ids(await list(userId, 'status=unread'))).not.toContain(alert.alertId);

    app.clock.advance(60_000);
    // A repeat writes nothing: the row keeps its version (xmin, the transaction that last wrote it).
    const version = () => app.db.query<{ v: string }>('select xmin::text as v from alerts where id = $1', [alert.alertId]);
    const before = (await version()).rows[0]?.v;
    const again = await markRead(userId, alert.alertId);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
    expect((await version()).rows[0]?.v).toBe(before);
    // The first read time is kept.
    const stored = await app.db.query<{ read_at: Date }>('select read_at from alerts where id = $1', [alert.alertId]);
    expect(new Date(stored.rows[0]?.read_at as Date).getTime()).toBe(app.clock.now().getTime() - 60_000);
  });

  it.each([
    [{ status: 'unread' }, 'status'],
    [{ status: 'read', pinned: true }, 'pinned'],
    [{}, 'status'],
  ])('rejects %j with 400', async (body, field) => {
    const alert = await createAlert(userId, 'account_closed');
    const res = await markRead(userId, alert.alertId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe(field);
    const listed = await list(userId, 'status=unread');
    expect(ids(listed)).toContain(alert.alertId);
  });

  it('answers 400 for a malformed alert id and 404 for an unknown one', async () => {
    expect((await markRead(userId, 'not-an-alert')).status).toBe(400);
    expect((await markRead(userId, 'alt_doesnotexist0001')).status).toBe(404);
  });

  it('answers 404 for another user’s alert, in this client or another, and leaves it unread', async () => {
    const other = await enrolActiveUser(app, token);
    const foreign = await createAlert(other, 'fraud_alert');
    const res = await markRead(userId, foreign.alertId);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');

    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    const theirUser = await enrolActiveUser(app, otherToken);
    const theirAlert = await createAlert(theirUser, 'fraud_alert', otherToken);
    expect((await markRead(theirUser, theirAlert.alertId)).status).toBe(404);
    expect((await markRead(userId, theirAlert.alertId)).status).toBe(404);
    expect((await list(other, 'status=unread')).body.data[0].alertId).toBe(foreign.alertId);
    expect((await list(theirUser, 'status=unread', otherToken)).body.data[0].alertId).toBe(theirAlert.alertId);
  });

  it('needs the write scope', async () => {
    const alert = await createAlert(userId, 'new_account');
    const readOnly = await app.token(client, 'read');
    const res = await markRead(userId, alert.alertId, { status: 'read' }, readOnly);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect((await list(userId, '', readOnly)).status).toBe(200);
  });
});

describe('who may see alerts', () => {
  it('answers 403 USER_NOT_ENROLLED before verification, on every alert route', async () => {
    const pending = await enrolUser(app, token);
    for (const res of [
      await list(pending),
      await markRead(pending, 'alt_doesnotexist0001'),
      await app.request('POST', `/v1/sandbox/users/${pending}/alerts`, { token, body: { type: 'fraud_alert' } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('USER_NOT_ENROLLED');
      expect(res.body.error.message).toMatch(/verification/);
    }
  });

  it('keeps alerts of a frozen file readable: monitoring does not stop for a freeze', async () => {
    const frozen = await enrolActiveUser(app, token, { ssn: '0000' });
    const alert = await createAlert(frozen, 'new_inquiry');
    const res = await list(frozen);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([alert.alertId]);
    expect((await markRead(frozen, alert.alertId)).status).toBe(200);
    // A score alert would reveal the frozen score: refused like the score itself, and nothing is written.
    const scoreAlert = await app.request('POST', `/v1/sandbox/users/${frozen}/alerts`, { token, body: { type: 'score_change' } });
    expect(scoreAlert.status).toBe(403);
    expect(scoreAlert.body.error.code).toBe('CREDIT_FROZEN');
    expect(ids(await list(frozen))).toEqual([alert.alertId]);
  });

  it('answers 404 for another client’s user', async () => {
    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    const theirs = await enrolActiveUser(app, otherToken);
    for (const res of [
      await list(theirs),
      await markRead(theirs, 'alt_doesnotexist0001'),
      await app.request('POST', `/v1/sandbox/users/${theirs}/alerts`, { token, body: { type: 'fraud_alert' } }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('lets a user token read and mark its own alerts, and answers 404 for any other user', async () => {
    const input = enrollment();
    const own = await enrolActiveUser(app, token, input);
    const other = await enrolActiveUser(app, token);
    const alert = await createAlert(own, 'late_payment');
    const otherAlert = await createAlert(other, 'late_payment');
    const ut = await app.userToken(token, input.externalUserId);

    const listed = await list(own, '', ut);
    expect(listed.status).toBe(200);
    expect(ids(listed)).toEqual([alert.alertId]);
    expect((await markRead(own, alert.alertId, { status: 'read' }, ut)).status).toBe(200);

    expect((await list(other, '', ut)).status).toBe(404);
    expect((await markRead(other, otherAlert.alertId, { status: 'read' }, ut)).status).toBe(404);
    expect((await markRead(own, otherAlert.alertId, { status: 'read' }, ut)).status).toBe(404);
    const sandbox = await app.request('POST', `/v1/sandbox/users/${own}/alerts`, { token: ut, body: { type: 'fraud_alert' } });
    expect(sandbox.status).toBe(403);
  });
});
