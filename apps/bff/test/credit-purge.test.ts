import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { runHousekeeping } from '../src/worker.ts';
import { enrolActiveUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

const countRows = async (table: string, userId: string) =>
  (await app.db.query<{ n: number }>(`select count(*)::int as n from ${table} where user_id = $1`, [userId])).rows[0]?.n;

describe('purging a deleted user', () => {
  it('erases their scores, alerts, verification sessions and the credit details of their events', async () => {
    const userId = await enrolActiveUser(app, token);
    await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, { token, body: { score: 420 } });
    await app.request('POST', `/v1/sandbox/users/${userId}/alerts`, { token, body: { type: 'address_change' } });
    const offers = await app.request('GET', `/v1/users/${userId}/offers?limit=1`, { token });
    await app.request('POST', `/v1/users/${userId}/offers/${offers.body.data[0].offerId}/click`, { token, body: {} });
    for (const table of ['score_history', 'alerts', 'verification_sessions', 'offer_clicks']) {
      expect(await countRows(table, userId), table).toBeGreaterThan(0);
    }

    await app.request('DELETE', `/v1/users/${userId}`, { token });
    app.clock.advance((app.ctx.config.USER_PURGE_AFTER_DAYS + 1) * 86_400_000);
    await runHousekeeping(app.ctx);

    for (const table of ['score_history', 'alerts', 'verification_sessions']) {
      expect(await countRows(table, userId), table).toBe(0);
    }
    expect(await countRows('offer_clicks', userId)).toBe(1);
    const events = (await listEventsForClient(app.db, client.id)).filter((e) => e.data.userId === userId);
    expect(events.map((e) => e.type)).toContain('alert.created');
    for (const event of events) {
      expect(Object.keys(event.data), event.type).not.toEqual(expect.arrayContaining(['score']));
      expect(event.data.alert, event.type).toBeUndefined();
    }
  });
});
