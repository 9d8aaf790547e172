import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness.ts';
import { sdkEnrollment } from './helpers/sdk-enrollment.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('SDK pagination', () => {
  it('iterates every item of a list across pages, in the server order, fetching page by page', async () => {
    const sdk = app.sdk(await app.createClient());
    const enrolled: string[] = [];
    for (let i = 0; i < 7; i += 1) {
      enrolled.push((await sdk.call('enrollUser', { body: sdkEnrollment() })).userId);
      app.clock.advance(1000);
    }

    const seen: string[] = [];
    for await (const user of sdk.list('listUsers', { query: { limit: 3, sort: 'createdAt' } })) seen.push(user.userId);
    expect(seen).toEqual(enrolled);

    const pages = [];
    for await (const page of sdk.list('listUsers', { query: { limit: 3 } }).pages()) pages.push(page);
    expect(pages.map((page) => page.data.length)).toEqual([3, 3, 1]);
    expect(pages.map((page) => page.pagination.hasMore)).toEqual([true, true, false]);
    expect(pages[0]?.pagination.total).toBe(7);
  });

  it('keeps the filters on every page and stops early when asked', async () => {
    const sdk = app.sdk(await app.createClient());
    for (let i = 0; i < 5; i += 1) await sdk.call('enrollUser', { body: sdkEnrollment({ lastName: i % 2 ? 'Odd' : 'Even' }) });
    const evens = await sdk.list('listUsers', { query: { limit: 1, sort: 'lastName' } }).toArray({ max: 2 });
    expect(evens.map((user) => user.lastName)).toEqual(['Even', 'Even']);
    const all = await sdk.list('listUsers', { query: { limit: 2, status: 'pending_verification' } }).toArray({ max: 100 });
    expect(all).toHaveLength(5);
  });
});
