import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrollment, startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let client: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
});
afterAll(() => app.close());

/**
 * A partner's whole integration, in the order its engineers build it: the server enrols and verifies a
 * customer, then the customer's own user token reads everything and acts on it.
 */
describe('credit journey over HTTP', () => {
  it('enrol → verify → score → history → offers → click → refresh → alert → mark read', async () => {
    const server = await app.token(client);
    const enrolled = await app.request('POST', '/v1/users/enroll', {
      token: server,
      body: enrollment({ externalUserId: 'journey-1' }),
    });
    expect(enrolled.status).toBe(201);
    const userId = enrolled.body.data.userId as string;
    const me = await app.userToken(server, 'journey-1');

    const session = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token: me });
    expect(session.status).toBe(200);
    expect(session.body.data.questions).toHaveLength(3);
    const key = await app.request(
      'GET',
      `/v1/sandbox/users/${userId}/verification/answers?sessionId=${session.body.data.sessionId}`,
      { token: server },
    );
    const verified = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
      token: me,
      body: { sessionId: session.body.data.sessionId, answers: key.body.data.answers },
    });
    expect(verified.body.data).toMatchObject({ verified: true, userId });
    expect((await app.request('GET', '/v1/me', { token: me })).body.data.status).toBe('active');

    const score = await app.request('GET', `/v1/users/${userId}/credit-score`, { token: me });
    expect(score.status).toBe(200);
    const history = await app.request('GET', `/v1/users/${userId}/credit-score/history?months=6`, { token: me });
    expect(history.body.data).toHaveLength(6);
    expect(history.body.data[0].score).toBe(score.body.data.score);

    const offers = await app.request('GET', `/v1/users/${userId}/offers?limit=5`, { token: me });
    expect(offers.status).toBe(200);
    expect(offers.body.data.length).toBeGreaterThan(0);
    const offer = offers.body.data[0];
    const click = await app.request('POST', `/v1/users/${userId}/offers/${offer.offerId}/click`, {
      token: me,
      body: { source: 'widget', metadata: { page: 'offers', position: 0 } },
      headers: { 'idempotency-key': 'journey-click-1' },
    });
    expect(click.status).toBe(201);
    expect(click.body.data).toMatchObject({ offerId: offer.offerId, userId });

    const target = score.body.data.score > 700 ? score.body.data.score - 30 : score.body.data.score + 30;
    const refreshed = await app.request('POST', `/v1/sandbox/users/${userId}/score-refresh`, {
      token: server,
      body: { score: target },
    });
    expect(refreshed.body.data).toMatchObject({ score: target, previousScore: score.body.data.score });

    const unread = await app.request('GET', `/v1/users/${userId}/alerts?status=unread`, { token: me });
    const alert = unread.body.data.find((a: { type: string }) => a.type === 'score_change');
    expect(alert).toMatchObject({ status: 'unread', data: { newScore: target, previousScore: score.body.data.score } });
    const read = await app.request('PATCH', `/v1/users/${userId}/alerts/${alert.alertId}`, {
      token: me,
      body: { status: 'read' },
    });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe('read');
    const stillUnread = await app.request('GET', `/v1/users/${userId}/alerts?status=unread&type=score_change`, { token: me });
    expect(stillUnread.body.data).toHaveLength(0);

    // Everything the partner's webhook endpoint would have been told, in order.
    const types = (await listEventsForClient(app.db, client.id)).map((e) => e.type);
    expect(types).toEqual([
      'user.enrolled',
      'user.verified',
      'score.updated',
      'offer.clicked',
      'score.updated',
      'score.changed',
      'alert.created',
    ]);
  });
});
