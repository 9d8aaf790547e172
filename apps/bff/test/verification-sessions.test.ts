import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BureauProvider } from '../src/bureau/provider.ts';
import { ApiError } from '../src/core/api-error.ts';
import { countingBureau } from './helpers/counting-bureau.ts';
import { enrolUser as enrolUserAs } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const PER_DAY = 3;

let app: TestApp;
let client: TestClient;
let token: string;
const counting = countingBureau();
/** Set to make the next identity pull fail as a bureau outage would. */
let failNextIdentityPull = false;
const bureau: BureauProvider = {
  ...counting.bureau,
  pullIdentityFile: (...args) => {
    if (failNextIdentityPull) {
      failNextIdentityPull = false;
      return Promise.reject(new ApiError('SERVICE_UNAVAILABLE', 'The credit bureau could not be reached. Try again later.'));
    }
    return counting.bureau.pullIdentityFile(...args);
  },
};

beforeAll(async () => {
  app = await startTestApp({ bureau, config: { VERIFICATION_SESSIONS_PER_DAY: String(PER_DAY) } });
  client = await app.createClient();
});
afterAll(() => app.close());
beforeEach(async () => {
  token = await app.token(client);
});

// Failures count per identity and the harness enrols everyone as the same Jane Doe: each test gets a person of its own.
let people = 0;
const anotherPerson = () => ({ lastName: `Sessions ${++people} ${Math.random().toString(36).slice(2, 8)}` });

const advance = async (ms: number) => {
  app.clock.advance(ms);
  token = await app.token(client);
};
const questions = (userId: string, as = token) => app.request('GET', `/v1/users/${userId}/verification/questions`, { token: as });
const answerKey = async (userId: string, sessionId: string) =>
  (await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`, { token })).body.data
    .answers as { questionId: string; answerId: string }[];
const submit = (userId: string, sessionId: string, answers: unknown) =>
  app.request('POST', `/v1/users/${userId}/verification/answers`, { token, body: { sessionId, answers } });
const sessionRows = async (userId: string) =>
  (await app.db.query<{ n: number }>('select count(*)::int as n from verification_sessions where user_id = $1', [userId])).rows[0]
    ?.n;

describe('an open verification session', () => {
  it('is handed out again, as first asked, without a bureau call, until it is answered', async () => {
    const userId = await enrolUserAs(app, token, anotherPerson());
    const pulls = counting.pulls.identity;
    const first = await questions(userId);
    expect(first.status).toBe(200);
    await advance(9 * MINUTE);
    const again = await questions(userId);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    expect(counting.pulls.identity).toBe(pulls + 1);
    expect(await sessionRows(userId)).toBe(1);

    const { sessionId } = first.body.data;
    const passed = await submit(userId, sessionId, await answerKey(userId, sessionId));
    expect(passed.body.data.verified).toBe(true);
    // Answered, it is done: the next request (a step-up) starts another session from a new identity file.
    const next = await questions(userId);
    expect(next.body.data.sessionId).not.toBe(sessionId);
    expect(counting.pulls.identity).toBe(pulls + 2);
  });

  it('gives way to a new session once it has expired', async () => {
    const userId = await enrolUserAs(app, token, anotherPerson());
    const first = (await questions(userId)).body.data;
    await advance(10 * MINUTE - 1000);
    expect((await questions(userId)).body.data.sessionId).toBe(first.sessionId);
    await advance(1000);
    const second = (await questions(userId)).body.data;
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.expiresAt).toBe(new Date(app.clock.now().getTime() + 10 * MINUTE).toISOString());
  });

  it('is one session, from one bureau call, for requests that arrive together', async () => {
    const userId = await enrolUserAs(app, token, anotherPerson());
    const pulls = counting.pulls.identity;
    const answers = await Promise.all(Array.from({ length: 8 }, () => questions(userId)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.data.sessionId)).size).toBe(1);
    expect(counting.pulls.identity).toBe(pulls + 1);
    expect(await sessionRows(userId)).toBe(1);
  });
});

describe('VERIFICATION_SESSIONS_PER_DAY', () => {
  it('bounds the new sessions of a user at a client in 24 h, then answers 429 with Retry-After until one leaves the window', async () => {
    const person = anotherPerson();
    const userId = await enrolUserAs(app, token, person);
    const started = app.clock.now().getTime();
    const ids: string[] = [];
    for (let i = 0; i < PER_DAY; i++) {
      if (i > 0) await advance(11 * MINUTE);
      const res = await questions(userId);
      expect(res.status).toBe(200);
      ids.push(res.body.data.sessionId);
    }
    expect(new Set(ids).size).toBe(PER_DAY);
    // The last one is open: it is still handed out at the limit.
    expect((await questions(userId)).body.data.sessionId).toBe(ids.at(-1));

    await advance(11 * MINUTE);
    const pulls = counting.pulls.identity;
    const refused = await questions(userId);
    expect(refused.status).toBe(429);
    const retryAfter = Math.ceil((started + DAY - app.clock.now().getTime()) / 1000);
    expect(refused.headers.get('retry-after')).toBe(String(retryAfter));
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter });
    expect(refused.body.error.message).toMatch(/3 verification sessions in the last 24 hours/);
    expect(counting.pulls.identity).toBe(pulls);

    // Per client and user: the client's other users, and the same person at another client, are not held back.
    expect((await questions(await enrolUserAs(app, token, anotherPerson()))).status).toBe(200);
    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    expect((await questions(await enrolUserAs(app, otherToken, person), otherToken)).status).toBe(200);

    await advance(started + DAY - 1000 - app.clock.now().getTime());
    const stillRefused = await questions(userId);
    expect(stillRefused.status).toBe(429);
    expect(stillRefused.headers.get('retry-after')).toBe('1');
    await advance(1000);
    const again = await questions(userId);
    expect(again.status).toBe(200);
    expect(ids).not.toContain(again.body.data.sessionId);
  });

  it('counts no session when the bureau call fails', async () => {
    const userId = await enrolUserAs(app, token, anotherPerson());
    failNextIdentityPull = true;
    expect((await questions(userId)).status).toBe(503);
    expect(await sessionRows(userId)).toBe(0);
    for (let i = 0; i < PER_DAY; i++) {
      if (i > 0) await advance(11 * MINUTE);
      expect((await questions(userId)).status).toBe(200);
    }
    await advance(11 * MINUTE);
    expect((await questions(userId)).status).toBe(429);
  });
});
