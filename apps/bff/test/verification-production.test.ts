import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolUser } from './helpers/credit-users.ts';
import { productionEnv, startTestApp, type TestApp } from './helpers/harness.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    config: productionEnv(),
  });
});
afterAll(() => app.close());

describe('identity verification in production without a bureau adapter', () => {
  it('answers 503 instead of questions from a synthetic file, and hides the sandbox answer key', async () => {
    const token = await app.token(await app.createClient());
    const userId = await enrolUser(app, token);
    const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token });
    expect(questions.status).toBe(503);
    expect(questions.body.error.code).toBe('SERVICE_UNAVAILABLE');
    const key = await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=ver_abcdefghijkl`, {
      token,
    });
    expect(key.status).toBe(404);
    const answers = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
      token,
      body: { sessionId: 'ver_abcdefghijkl', answers: [{ questionId: 'q1', answerId: 'q1_000000' }] },
    });
    expect(answers.status).toBe(400);
    const { rows } = await app.db.query('select count(*)::int as n from verification_sessions');
    expect(rows[0]).toEqual({ n: 0 });
    expect((await app.request('GET', `/v1/users/${userId}`, { token })).body.data.status).toBe('pending_verification');
  });
});
