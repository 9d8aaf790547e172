import { bearerAuth, CreditClient } from '@credit/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';
import { sdkEnrollment } from './helpers/sdk-enrollment.ts';

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
describe('credit journey over HTTP, through the SDK', () => {
  it('enrol → verify → score → history → offers → click → refresh → alert → mark read', async () => {
    // The partner's server signs in with its credentials; the customer's browser holds only a user token.
    const server = app.sdk(client);
    const { userId } = await server.call('enrollUser', { body: sdkEnrollment({ externalUserId: 'journey-1' }) });
    const { userToken } = await server.mintUserToken({
      externalUserId: 'journey-1',
      email: 'journey-1@example.test',
      firstName: 'Jane',
      lastName: 'Doe',
    });
    const me = new CreditClient({ baseUrl: app.url, auth: bearerAuth(() => userToken) });

    const session = await me.call('getVerificationQuestions', { params: { userId } });
    expect(session.questions).toHaveLength(3);
    const key = await server.call('sandboxGetVerificationAnswers', {
      params: { userId },
      query: { sessionId: session.sessionId },
    });
    const verified = await me.call('submitVerificationAnswers', {
      params: { userId },
      body: { sessionId: session.sessionId, answers: key.answers },
    });
    expect(verified).toMatchObject({ verified: true, userId });
    expect((await me.call('getMe')).status).toBe('active');

    const score = await me.call('getCreditScore', { params: { userId } });
    const history = await me.call('listCreditScoreHistory', { params: { userId }, query: { months: 6 } });
    expect(history.data).toHaveLength(6);
    expect(history.data[0]?.score).toBe(score.score);

    const offers = await me.call('listUserOffers', { params: { userId }, query: { limit: 5 } });
    const offer = offers.data[0];
    if (!offer) throw new Error('no offers');
    const click = await me.call('recordOfferClick', {
      params: { userId, offerId: offer.offerId },
      body: { source: 'widget', metadata: { page: 'offers', position: 0 } },
      idempotencyKey: 'journey-click-1',
    });
    expect(click).toMatchObject({ offerId: offer.offerId, userId });

    const target = score.score > 700 ? score.score - 30 : score.score + 30;
    const refreshed = await server.call('sandboxRefreshScore', { params: { userId }, body: { score: target } });
    expect(refreshed).toMatchObject({ score: target, previousScore: score.score });

    const unread = await me.call('listAlerts', { params: { userId }, query: { status: 'unread' } });
    const alert = unread.data.find((a) => a.type === 'score_change');
    expect(alert).toMatchObject({ status: 'unread', data: { newScore: target, previousScore: score.score } });
    const read = await me.call('updateAlert', { params: { userId, alertId: alert?.alertId ?? '' }, body: { status: 'read' } });
    expect(read.status).toBe('read');
    const stillUnread = await me.call('listAlerts', { params: { userId }, query: { status: 'unread', type: 'score_change' } });
    expect(stillUnread.data).toHaveLength(0);

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
