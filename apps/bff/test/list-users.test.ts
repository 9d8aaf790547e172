import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;
const enrolled: { userId: string; lastName: string; createdAt: string }[] = [];
const LAST_NAMES = ['Nguyen', 'Adams', 'Okafor', 'Baker', 'Adams', 'Zhou', 'Martin'];

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
  for (const lastName of LAST_NAMES) {
    app.clock.advance(60_000);
    const res = await app.request('POST', '/v1/users/enroll', { token, body: enrollment({ lastName }) });
    enrolled.push({ userId: res.body.data.userId, lastName, createdAt: res.body.data.createdAt });
  }
});
afterAll(() => app.close());

const list = (query: string) => app.request('GET', `/v1/users?${query}`, { token });

/** Follows nextCursor to the end and returns every page's items. */
const walk = async (query: string) => {
  const pages: { userId: string; lastName: string }[][] = [];
  let cursor: string | null = null;
  do {
    const res = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBe(LAST_NAMES.length);
    pages.push(res.body.data);
    cursor = res.body.pagination.nextCursor;
    expect(res.body.pagination.hasMore).toBe(cursor !== null);
  } while (cursor);
  return pages;
};

describe('GET /v1/users', () => {
  it('pages newest first by default, with every user exactly once', async () => {
    const pages = await walk('limit=3');
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((u) => u.userId)).toEqual([...enrolled].reverse().map((u) => u.userId));
  });

  it('sorts by several fields in mixed directions', async () => {
    const pages = await walk('limit=2&sort=lastName,-createdAt');
    const expected = [...enrolled].sort((a, b) => a.lastName.localeCompare(b.lastName) || b.createdAt.localeCompare(a.createdAt));
    expect(pages.flat().map((u) => u.userId)).toEqual(expected.map((u) => u.userId));
  });

  it('filters by creation window, status and externalUserId', async () => {
    const window = await list(`createdAfter=${enrolled[2]?.createdAt}&createdBefore=${enrolled[5]?.createdAt}&sort=createdAt`);
    expect(window.body.data.map((u: { userId: string }) => u.userId)).toEqual(enrolled.slice(2, 5).map((u) => u.userId));
    expect(window.body.pagination).toEqual({ hasMore: false, nextCursor: null, total: 3 });
    expect((await list('status=active')).body.pagination.total).toBe(0);
    expect((await list('status=pending_verification')).body.pagination.total).toBe(LAST_NAMES.length);
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=101', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['sort=height', 'query.sort'],
    ['status=maybe', 'query.status'],
    ['createdAfter=yesterday', 'query.createdAfter'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('rejects %s with 400', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe(field);
  });

  it('refuses a cursor made for another sort order', async () => {
    const first = await list('limit=2&sort=lastName');
    const res = await list(`limit=2&sort=-createdAt&cursor=${first.body.pagination.nextCursor}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].field).toBe('cursor');
  });
});

describe('tampered cursors', () => {
  it('answer 400, never 500', async () => {
    const forge = (sort: string, values: unknown[]) => Buffer.from(JSON.stringify({ s: sort, v: values })).toString('base64url');
    for (const [sort, values] of [
      ['-createdAt', ['not-a-date', 'usr_x']],
      ['-createdAt', [42, 'usr_x']],
      ['lastName', [{ $gt: 1 }, 'usr_x']],
      ['lastName', ['Adams']],
    ] as const) {
      const res = await list(`sort=${sort}&cursor=${forge(sort, [...values])}`);
      expect(res.status, JSON.stringify(values)).toBe(400);
      expect(res.body.error.details[0].field).toBe('cursor');
    }
  });
});
