import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

let app: TestApp;
let token: string;
let client: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());

/** One failed verification session (sandbox ssn 9999 always fails). */
const failOnce = async (userId: string) => {
  const session = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
  const wrong = session.body.data.questions.map((q: { questionId: string; options: { id: string }[] }) => ({
    questionId: q.questionId,
    answerId: q.options[0]?.id,
  }));
  const res = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
    token,
    body: { sessionId: session.body.data.sessionId, answers: wrong },
  });
  expect(res.body.data.verified).toBe(false);
};

const listed = async (status: string) =>
  (await app.request('GET', `/v1/users?status=${status}`, { token })).body.data.map((u: { userId: string }) => u.userId);

describe('user status after a verification lock', () => {
  it('reads and filters as locked for 24 h, then as pending_verification', async () => {
    const userId = await enrolUser(app, token, { ssn: '9999' });
    for (let i = 0; i < 3; i++) await failOnce(userId);
    expect((await app.request('GET', `/v1/users/${userId}`, { token })).body.data.status).toBe('locked');
    expect(await listed('locked')).toEqual([userId]);
    expect(await listed('pending_verification')).toEqual([]);

    app.clock.advance(24 * 3_600_000 + 1000);
    token = await app.token(client); // the old one expired meanwhile
    expect((await app.request('GET', `/v1/users/${userId}`, { token })).body.data.status).toBe('pending_verification');
    expect(await listed('locked')).toEqual([]);
    expect(await listed('pending_verification')).toEqual([userId]);
  });
});
