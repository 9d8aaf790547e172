import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

/**
 * Every list pages with one signed cursor codec: a cursor we did not issue — forged, edited, or issued for
 * another list, user, sort or filter — is `400 VALIDATION_ERROR` on `cursor`, never a database error.
 */
let app: TestApp;
let token: string;
let userId: string;
let otherUserId: string;
let webhookId: string;

const LISTS = () => ({
  users: '/v1/users?limit=1',
  webhooks: '/v1/webhooks?limit=1',
  'webhook logs': `/v1/webhooks/${webhookId}/logs?limit=1`,
  alerts: `/v1/users/${userId}/alerts?limit=1`,
  offers: `/v1/users/${userId}/offers?limit=1`,
  catalogue: '/v1/offers?limit=1',
  history: `/v1/users/${userId}/credit-score/history?limit=1`,
});
type ListName = keyof ReturnType<typeof LISTS>;

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Cursors in the shapes the lists used before they were signed, with values JavaScript accepts and PostgreSQL does not. */
const FORGED = [
  b64({ s: '-createdAt', v: ['+275760-09-13T00:00:00.000Z', 'usr_x'] }),
  b64({ s: 'newest', v: ['0000-01-01T00:00:00.000Z', '1'] }),
  b64({ q: '999999999999999999', m: 12 }),
  `${b64({ list: 'catalogue', type: null, status: 'active', offset: 1 })}.${'0'.repeat(32)}`,
  'not-a-cursor',
];

const expectBadCursor = async (path: string, cursor: string) => {
  const res = await app.request('GET', `${path}&cursor=${encodeURIComponent(cursor)}`, { token });
  expect(res.status, `${path} ${cursor}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details).toEqual([{ field: 'cursor', message: expect.any(String) }]);
};

const firstCursor = async (path: string): Promise<string> => {
  const res = await app.request('GET', path, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.pagination.nextCursor, path).toEqual(expect.any(String));
  return res.body.pagination.nextCursor as string;
};

beforeAll(async () => {
  app = await startTestApp();
  token = await app.token(await app.createClient());
  userId = await enrolActiveUser(app, token);
  otherUserId = await enrolActiveUser(app, token);
  for (const type of ['fraud_alert', 'new_inquiry']) {
    const alert = await app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token, body: { type } });
    expect(alert.status).toBe(201);
  }
  for (const path of ['/a', '/b']) {
    const created = await app.request('POST', '/v1/webhooks', {
      token,
      body: { url: `https://127.0.0.1:1${path}`, events: ['user.enrolled'], secret: 'whsec_0123456789abcdef' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    webhookId = created.body.data.webhookId;
  }
  // Two attempts to a port nothing listens on: two failed log entries.
  for (let i = 0; i < 2; i += 1) {
    const test = await app.request('POST', `/v1/webhooks/${webhookId}/test`, { token, body: { eventType: 'user.enrolled' } });
    expect(test.status).toBe(200);
  }
});
afterAll(() => app.close());

describe('signed cursors', () => {
  it.each(Object.keys(LISTS()) as ListName[])('%s: its own cursor opens the next page', async (name) => {
    const path = LISTS()[name];
    const cursor = await firstCursor(path);
    const next = await app.request('GET', `${path}&cursor=${encodeURIComponent(cursor)}`, { token });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data).toHaveLength(1);
  });

  it.each(Object.keys(LISTS()) as ListName[])('%s: forged, edited and truncated cursors are 400 on cursor', async (name) => {
    const path = LISTS()[name];
    for (const forged of FORGED) await expectBadCursor(path, forged);
    const cursor = await firstCursor(path);
    const [body, signature] = cursor.split('.') as [string, string];
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    await expectBadCursor(path, `${body}.${flipped}`);
    await expectBadCursor(path, body);
    // A payload edited to a far-future instant, re-attached to the original signature.
    const edited = b64({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), v: ['+275760-09-13T00:00:00.000Z', '1'] });
    await expectBadCursor(path, `${edited}.${signature}`);
  });

  it('a cursor of one list does not open another', async () => {
    const lists = LISTS();
    const users = await firstCursor(lists.users);
    const alerts = await firstCursor(lists.alerts);
    await expectBadCursor(lists.webhooks, users);
    await expectBadCursor(lists.users, alerts);
    await expectBadCursor(lists.catalogue, await firstCursor(lists.offers));
  });

  it('a cursor is bound to its user, sort and filters', async () => {
    const lists = LISTS();
    await expectBadCursor(`/v1/users/${otherUserId}/credit-score/history?limit=1`, await firstCursor(lists.history));
    await expectBadCursor(`${lists.history}&months=24`, await firstCursor(lists.history));
    await expectBadCursor(`${lists.users}&sort=lastName`, await firstCursor(lists.users));
    await expectBadCursor(`${lists.catalogue}&type=loan`, await firstCursor(lists.catalogue));
    await expectBadCursor(`/v1/users/${otherUserId}/alerts?limit=1`, await firstCursor(lists.alerts));
  });
});
