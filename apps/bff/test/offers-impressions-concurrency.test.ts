import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('counts impression batches that name the same offers in opposite orders at once, every one answered', async () => {
  const client = await app.createClient();
  const token = await app.token(client);
  const catalogue = await app.request('GET', '/v1/offers?limit=100', { token });
  const offerIds = (catalogue.body.data as { offerId: string }[]).map((o) => o.offerId);
  expect(offerIds.length).toBeGreaterThanOrEqual(8);
  const users: string[] = [];
  for (let i = 0; i < 8; i++) users.push(await enrolActiveUser(app, token, { externalUserId: `imp-${i}` }));
  // Customers' offers are ranked per customer, so their batches name the same offers in different orders.
  const answers = await Promise.all(
    users.map((userId, i) =>
      app.request('POST', `/v1/users/${userId}/offers/impressions`, {
        token,
        body: { offerIds: i % 2 === 0 ? offerIds : [...offerIds].reverse() },
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
  expect(answers.map((a) => a.body.data.counted)).toEqual(users.map(() => offerIds.length));
  const today = app.clock.now().toISOString().slice(0, 10);
  const results = await app.request('GET', `/v1/offers/results?from=${today}&to=${today}`, { token });
  expect(results.body.data.totals.impressions).toBe(users.length * offerIds.length);
});
