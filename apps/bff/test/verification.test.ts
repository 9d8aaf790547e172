import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listEventsForClient } from '../src/outbox/outbox.ts';
import { enrolActiveUser as enrolActiveUserAs, enrolUser as enrolUserAs } from './helpers/credit-users.ts';
import { startTestApp, type TestApp, type TestClient } from './helpers/harness.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let app: TestApp;
let client: TestClient;
let token: string;

beforeAll(async () => {
  app = await startTestApp();
  client = await app.createClient();
  token = await app.token(client);
});
afterAll(() => app.close());
beforeEach(async () => {
  token = await app.token(client);
});

// Failures count per identity, and the harness enrols everyone as the same Jane Doe: give each
// user of this file a person of their own unless a test wants otherwise.
let people = 0;
const anotherPerson = () => ({ lastName: `Doe ${++people} ${Math.random().toString(36).slice(2, 8)}` });
const enrolUser = (a: TestApp, t: string, overrides: Record<string, unknown> = {}) =>
  enrolUserAs(a, t, { ...anotherPerson(), ...overrides });
const enrolActiveUser = (a: TestApp, t: string, overrides: Record<string, unknown> = {}) =>
  enrolActiveUserAs(a, t, { ...anotherPerson(), ...overrides });

/** Moves time on; access tokens live an hour, so a fresh one keeps the test's requests authenticated. */
const advance = async (ms: number) => {
  app.clock.advance(ms);
  token = await app.token(client);
};

interface Question {
  questionId: string;
  text: string;
  options: { id: string; text: string }[];
}

const questions = (userId: string, as = token) => app.request('GET', `/v1/users/${userId}/verification/questions`, { token: as });
const submit = (userId: string, body: unknown, as = token) =>
  app.request('POST', `/v1/users/${userId}/verification/answers`, { token: as, body });
const answerKey = (userId: string, sessionId: string, as = token) =>
  app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`, { token: as });

/** A fresh session and its right answers. */
const startSession = async (userId: string) => {
  const res = await questions(userId);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const key = await answerKey(userId, res.body.data.sessionId);
  expect(key.status).toBe(200);
  const right = key.body.data.answers as { questionId: string; answerId: string }[];
  return { sessionId: res.body.data.sessionId as string, questions: res.body.data.questions as Question[], right };
};

/** The right answers with the first one swapped for another option of its question. */
const oneWrong = (session: Awaited<ReturnType<typeof startSession>>) =>
  session.right.map((a, i) => {
    if (i > 0) return a;
    const question = session.questions.find((q) => q.questionId === a.questionId) as Question;
    return { ...a, answerId: (question.options.find((o) => o.id !== a.answerId) as { id: string }).id };
  });

const failOnce = async (userId: string) => {
  const session = await startSession(userId);
  return submit(userId, { sessionId: session.sessionId, answers: oneWrong(session) });
};

const status = async (userId: string) => (await app.request('GET', `/v1/users/${userId}`, { token })).body.data.status;

/** What a question asks and offers, regardless of ids and order. */
const content = (qs: Question[]) =>
  qs.map((q) => ({ text: q.text, options: q.options.map((o) => o.text).sort() })).sort((a, b) => a.text.localeCompare(b.text));

describe('GET /v1/users/{userId}/verification/questions', () => {
  it('starts a 10-minute session of 3 questions with 5 options, the last “None of the above”', async () => {
    const userId = await enrolUser(app, token);
    const res = await questions(userId);
    expect(res.status).toBe(200);
    const { sessionId, questions: qs, expiresAt } = res.body.data;
    expect(sessionId).toMatch(/^ver_/);
    expect(expiresAt).toBe(new Date(app.clock.now().getTime() + 10 * MINUTE).toISOString());
    expect(qs).toHaveLength(3);
    expect(new Set(qs.map((q: Question) => q.questionId)).size).toBe(3);
    for (const q of qs as Question[]) {
      expect(q.text).toMatch(/\?$/);
      expect(q.options).toHaveLength(5);
      expect(q.options.at(-1)?.text).toBe('None of the above');
      expect(new Set(q.options.map((o) => o.id)).size).toBe(5);
      expect(new Set(q.options.map((o) => o.text)).size).toBe(5);
    }
    expect(await status(userId)).toBe('pending_verification');
  });

  it('asks the same user the same things each session, with new ids and order', async () => {
    const userId = await enrolUser(app, token);
    const first = await startSession(userId);
    // While the first is open it is handed out again: a new session comes once it has expired.
    await advance(10 * MINUTE + 1000);
    const second = await startSession(userId);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(content(second.questions)).toEqual(content(first.questions));
    const ids = (s: typeof first) => s.questions.flatMap((q) => q.options.map((o) => o.id));
    expect(ids(second)).not.toEqual(ids(first));
    // The right answer of each question is the same choice in both sessions.
    const rightTexts = (s: typeof first) =>
      Object.fromEntries(
        s.right.map((a) => {
          const q = s.questions.find((x) => x.questionId === a.questionId) as Question;
          return [q.text, q.options.find((o) => o.id === a.answerId)?.text];
        }),
      );
    expect(rightTexts(second)).toEqual(rightTexts(first));
  });

  it('asks every enrolment of one person the same things, in any client', async () => {
    const person = anotherPerson();
    const first = await enrolUser(app, token, person);
    const second = await enrolUser(app, token, { ...person, email: 'other@example.test' });
    const otherClient = await app.createClient();
    const otherToken = await app.token(otherClient);
    const third = await enrolUser(app, otherToken, person);
    const a = await startSession(first);
    const b = await startSession(second);
    const c = await questions(third, otherToken);
    expect(content(b.questions)).toEqual(content(a.questions));
    expect(content(c.body.data.questions)).toEqual(content(a.questions));
  });

  it('never asks the birth year, which the enroller supplies', async () => {
    for (let i = 0; i < 5; i++) {
      const session = await startSession(await enrolUser(app, token));
      for (const q of session.questions) expect(q.text).not.toMatch(/born|birth/i);
    }
  });

  it('keeps neither the answer key nor the questions in plain text', async () => {
    const userId = await enrolUser(app, token);
    const session = await startSession(userId);
    const { rows } = await app.db.query<Record<string, unknown>>('select * from verification_sessions where id = $1', [
      session.sessionId,
    ]);
    const row = rows[0] ?? {};
    // Every column is checked for its form, so a new one must be classified here; none can hold text. (Searching the
    // row's JSON for the options found "2014" by chance in the hex hash, and could in a timestamp.)
    expect(Object.keys(row).sort()).toEqual([
      'answer_key_enc',
      'answered_at',
      'client_id',
      'created_at',
      'expires_at',
      'id',
      'identity_hash',
      'passed',
      'user_id',
    ]);
    expect([row.id, row.user_id, row.client_id]).toEqual([session.sessionId, userId, expect.stringMatching(/^cli_\w+$/)]);
    expect([row.created_at, row.expires_at]).toEqual([expect.any(Date), expect.any(Date)]);
    expect([row.answered_at, row.passed]).toEqual([null, null]);
    expect(row.identity_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.answer_key_enc).toMatch(/^v1\.[0-9a-f]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    // The key's body is ciphertext, not the answers merely encoded.
    const body = Buffer.from(String(row.answer_key_enc).split('.')[4] ?? '', 'base64url').toString('latin1');
    for (const a of session.right) expect(body).not.toContain(a.answerId);
    for (const q of session.questions) expect(body).not.toContain(q.text);
    // The sandbox key still lists the session's questions in order.
    expect(session.right.map((a) => a.questionId)).toEqual(['q1', 'q2', 'q3']);
  });
});

describe('POST /v1/users/{userId}/verification/answers', () => {
  it('activates the user and emits user.verified on the right answers', async () => {
    const userId = await enrolUser(app, token);
    const session = await startSession(userId);
    await advance(MINUTE);
    const res = await submit(userId, { sessionId: session.sessionId, answers: session.right });
    expect(res.status).toBe(200);
    const verifiedAt = app.clock.now().toISOString();
    expect(res.body.data).toEqual({ verified: true, userId, verifiedAt });
    expect(await status(userId)).toBe('active');
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token })).status).toBe(200);
    const events = (await listEventsForClient(app.db, client.id)).filter((e) => e.type === 'user.verified');
    const externalUserId = (await app.request('GET', `/v1/users/${userId}`, { token })).body.data.externalUserId;
    expect(events.filter((e) => e.data.userId === userId)).toEqual([
      expect.objectContaining({ data: { userId, externalUserId, verifiedAt } }),
    ]);
  });

  it('lets an active user verify again (step-up) without a second user.verified', async () => {
    const userId = await enrolActiveUser(app, token);
    const session = await startSession(userId);
    const res = await submit(userId, { sessionId: session.sessionId, answers: session.right });
    expect(res.body.data.verified).toBe(true);
    expect(await status(userId)).toBe('active');
    const events = await listEventsForClient(app.db, client.id);
    expect(events.filter((e) => e.type === 'user.verified' && e.data.userId === userId)).toHaveLength(1);
  });

  it('fails when any answer is wrong, missing, doubled or for another question', async () => {
    const userId = await enrolUser(app, token);
    const cases = [
      (s: Awaited<ReturnType<typeof startSession>>) => oneWrong(s),
      (s: Awaited<ReturnType<typeof startSession>>) => s.right.slice(1),
      (s: Awaited<ReturnType<typeof startSession>>) => [...s.right, s.right[0]],
    ];
    const before = (await listEventsForClient(app.db, client.id)).length;
    for (const [i, wrong] of cases.entries()) {
      const session = await startSession(userId);
      const res = await submit(userId, { sessionId: session.sessionId, answers: wrong(session) });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ verified: false, userId, verifiedAt: null, attemptsRemaining: 2 - i });
    }
    expect((await listEventsForClient(app.db, client.id)).length).toBe(before);
    // Answering every option of a question at once is not a way through either.
    const other = await enrolUser(app, token);
    const session = await startSession(other);
    const spray = [...session.right, { questionId: 'q9', answerId: 'q9_000000' }];
    expect((await submit(other, { sessionId: session.sessionId, answers: spray })).body.data.verified).toBe(false);
  });

  it('locks verification after 3 failed sessions in 24 h, until 24 h after the last one', async () => {
    const userId = await enrolUser(app, token);
    expect((await failOnce(userId)).body.data.attemptsRemaining).toBe(2);
    await advance(5 * MINUTE);
    expect((await failOnce(userId)).body.data.attemptsRemaining).toBe(1);
    await advance(5 * MINUTE);
    const third = await failOnce(userId);
    const unlocksAt = new Date(app.clock.now().getTime() + DAY).toISOString();
    expect(third.body.data).toEqual({ verified: false, userId, verifiedAt: null, attemptsRemaining: 0, unlocksAt });
    expect(await status(userId)).toBe('locked');

    const blocked = await questions(userId);
    expect(blocked.status).toBe(403);
    expect(blocked.body.error).toMatchObject({ code: 'VERIFICATION_LOCKED', unlocksAt });
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token })).body.error.code).toBe('USER_NOT_ENROLLED');

    await advance(DAY - 1000);
    expect((await questions(userId)).status).toBe(403);
    await advance(1000);
    expect(await status(userId)).toBe('pending_verification');
    const fresh = await startSession(userId);
    const row = await app.db.query('select status, locked_until from users where id = $1', [userId]);
    expect(row.rows[0]).toEqual({ status: 'pending_verification', locked_until: null });
    // The earlier failures have left the 24 h window: a new failure starts counting afresh.
    const failed = await submit(userId, { sessionId: fresh.sessionId, answers: oneWrong(fresh) });
    expect(failed.body.data.attemptsRemaining).toBe(2);
    const session = await startSession(userId);
    expect((await submit(userId, { sessionId: session.sessionId, answers: session.right })).body.data.verified).toBe(true);
    expect(await status(userId)).toBe('active');
  });

  it('keeps an active user active when step-ups fail, but locks further attempts', async () => {
    const userId = await enrolActiveUser(app, token);
    for (let i = 0; i < 3; i++) await failOnce(userId);
    expect(await status(userId)).toBe('active');
    expect((await questions(userId)).body.error.code).toBe('VERIFICATION_LOCKED');
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token })).status).toBe(200);
    await advance(DAY);
    expect((await questions(userId)).status).toBe(200);
  });

  it('fails a sandbox user with ssn 9999 even on the right answers', async () => {
    const userId = await enrolUser(app, token, { ssn: '9999' });
    const session = await startSession(userId);
    const res = await submit(userId, { sessionId: session.sessionId, answers: session.right });
    expect(res.body.data).toMatchObject({ verified: false, attemptsRemaining: 2 });
    expect(await status(userId)).toBe('pending_verification');
  });

  it('lets a user with a frozen file (ssn 0000) verify: a freeze blocks lenders, not the consumer', async () => {
    const userId = await enrolActiveUser(app, token, { ssn: '0000' });
    expect(await status(userId)).toBe('active');
    expect((await app.request('GET', `/v1/users/${userId}/credit-score`, { token })).body.error.code).toBe('CREDIT_FROZEN');
    // Passing does not start a score history from the frozen file: its score reaches no one.
    const events = await listEventsForClient(app.db, client.id);
    expect(events.filter((e) => e.type === 'score.updated' && e.data.userId === userId)).toEqual([]);
    const { rows } = await app.db.query('select count(*)::int as n from score_history where user_id = $1', [userId]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('counts failures per person within a client: its other enrolments lock too, another tenant’s never do', async () => {
    const person = { ...anotherPerson(), ssn: '9999' };
    const first = await enrolUser(app, token, person);
    const second = await enrolUser(app, token, person);
    const otherClient = await app.createClient();
    let otherToken = await app.token(otherClient);
    const elsewhere = await enrolUser(app, otherToken, person);
    // Another tenant enrols the same person and fails three times: its own enrolment locks, ours does not.
    for (const left of [2, 1, 0]) {
      const s = await questions(elsewhere, otherToken);
      const k = await answerKey(elsewhere, s.body.data.sessionId, otherToken);
      // ssn 9999: the sandbox fails every verification of this person, right answers included.
      const attempt = { sessionId: s.body.data.sessionId, answers: k.body.data.answers };
      expect((await submit(elsewhere, attempt, otherToken)).body.data.attemptsRemaining).toBe(left);
      await advance(MINUTE);
      otherToken = await app.token(otherClient);
    }
    expect((await app.request('GET', `/v1/users/${elsewhere}`, { token: otherToken })).body.data.status).toBe('locked');
    expect((await questions(first)).status).toBe(200);

    // Within one client, failures of any enrolment of the person count together.
    expect((await failOnce(first)).body.data.attemptsRemaining).toBe(2);
    await advance(MINUTE);
    expect((await failOnce(second)).body.data.attemptsRemaining).toBe(1);
    await advance(MINUTE);
    const open = await startSession(first);
    const locking = await failOnce(second);
    const unlocksAt = new Date(app.clock.now().getTime() + DAY).toISOString();
    expect(locking.body.data).toEqual({ verified: false, userId: second, verifiedAt: null, attemptsRemaining: 0, unlocksAt });
    const refused = await questions(first);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'VERIFICATION_LOCKED', unlocksAt });
    const late = await submit(first, { sessionId: open.sessionId, answers: open.right });
    expect(late.body.error).toMatchObject({ code: 'VERIFICATION_LOCKED', unlocksAt });
    // A new enrolment of the same person at this client does not start afresh either.
    const fourth = await enrolUser(app, token, person);
    expect((await questions(fourth)).body.error.code).toBe('VERIFICATION_LOCKED');
    await advance(DAY);
    expect((await questions(first)).status).toBe(200);
  });

  it('accepts a session until its expiry and refuses it one second after', async () => {
    const userId = await enrolUser(app, token);
    const onTime = await startSession(userId);
    await advance(10 * MINUTE);
    expect((await submit(userId, { sessionId: onTime.sessionId, answers: onTime.right })).status).toBe(200);
    const late = await startSession(userId);
    await advance(10 * MINUTE + 1000);
    const res = await submit(userId, { sessionId: late.sessionId, answers: late.right });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'sessionId', message: expect.stringMatching(/expired/) }]);
  });

  it('answers each session once', async () => {
    const userId = await enrolUser(app, token);
    const session = await startSession(userId);
    expect((await submit(userId, { sessionId: session.sessionId, answers: oneWrong(session) })).status).toBe(200);
    const again = await submit(userId, { sessionId: session.sessionId, answers: session.right });
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual([{ field: 'sessionId', message: expect.stringMatching(/already been answered/) }]);
    expect(await status(userId)).toBe('pending_verification');
  });

  it('counts only one of two concurrent submissions of a session', async () => {
    const userId = await enrolUser(app, token);
    const session = await startSession(userId);
    const body = { sessionId: session.sessionId, answers: oneWrong(session) };
    const results = await Promise.all([submit(userId, body), submit(userId, body), submit(userId, body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect((await failOnce(userId)).body.data.attemptsRemaining).toBe(1);

    const passing = await startSession(userId);
    const right = { sessionId: passing.sessionId, answers: passing.right };
    const both = await Promise.all([submit(userId, right), submit(userId, right)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    const events = await listEventsForClient(app.db, client.id);
    expect(events.filter((e) => e.type === 'user.verified' && e.data.userId === userId)).toHaveLength(1);
  });

  it('refuses another user’s session as an unknown one', async () => {
    const userId = await enrolUser(app, token);
    const other = await enrolUser(app, token);
    const session = await startSession(other);
    const res = await submit(userId, { sessionId: session.sessionId, answers: session.right });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ field: 'sessionId', message: expect.stringMatching(/No verification session/) }]);
    expect((await submit(userId, { sessionId: 'ver_doesNotExist1234', answers: session.right })).status).toBe(400);
    expect(await status(other)).toBe('pending_verification');
  });

  it.each([
    ['a missing sessionId', { answers: [{ questionId: 'q1', answerId: 'q1_a' }] }, ['sessionId']],
    ['answers that are not an array', { sessionId: 'ver_abcdefghijkl', answers: 'q1_a' }, ['answers']],
    ['no answers', { sessionId: 'ver_abcdefghijkl', answers: [] }, ['answers']],
    ['an answer without answerId', { sessionId: 'ver_abcdefghijkl', answers: [{ questionId: 'q1' }] }, ['answers.0.answerId']],
    ['an unknown field', { sessionId: 'ver_abcdefghijkl', answers: [{ questionId: 'q1', answerId: 'x' }], extra: 1 }, ['extra']],
    [
      'a session id of another kind',
      { sessionId: 'usr_abcdefghijkl', answers: [{ questionId: 'q1', answerId: 'x' }] },
      ['sessionId'],
    ],
  ])('rejects %s with 400 naming the field', async (_name, body, fields) => {
    const userId = await enrolUser(app, token);
    const res = await submit(userId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(fields);
  });
});

describe('who may verify', () => {
  it('hides another client’s user (404) on every verification route', async () => {
    const userId = await enrolUser(app, token);
    const session = await startSession(userId);
    const stranger = await app.token(await app.createClient());
    expect((await questions(userId, stranger)).status).toBe(404);
    expect((await submit(userId, { sessionId: session.sessionId, answers: session.right }, stranger)).status).toBe(404);
    expect((await answerKey(userId, session.sessionId, stranger)).status).toBe(404);
    expect(await status(userId)).toBe('pending_verification');
  });

  it('lets a user token verify its own user and no other', async () => {
    const userId = await enrolUser(app, token, { externalUserId: 'kba-self-1' });
    const other = await enrolUser(app, token);
    const userToken = await app.userToken(token, 'kba-self-1');
    const res = await questions(userId, userToken);
    expect(res.status).toBe(200);
    const key = await answerKey(userId, res.body.data.sessionId);
    const passed = await submit(userId, { sessionId: res.body.data.sessionId, answers: key.body.data.answers }, userToken);
    expect(passed.body.data.verified).toBe(true);
    expect((await questions(other, userToken)).status).toBe(404);
    expect((await submit(other, { sessionId: res.body.data.sessionId, answers: key.body.data.answers }, userToken)).status).toBe(
      404,
    );
    expect((await answerKey(userId, res.body.data.sessionId, userToken)).status).toBe(403);
  });

  it('needs the write scope', async () => {
    const userId = await enrolUser(app, token);
    const readOnly = await app.token(client, 'read');
    expect((await questions(userId, readOnly)).body.error.code).toBe('AUTHORIZATION_ERROR');
  });
});

describe('GET /v1/sandbox/users/{userId}/verification/answers', () => {
  it('returns the key of the user’s own session only, to admin tokens', async () => {
    const userId = await enrolUser(app, token);
    const other = await enrolUser(app, token);
    const session = await startSession(userId);
    expect(session.right.map((a) => a.questionId)).toEqual(session.questions.map((q) => q.questionId));
    const key = await answerKey(userId, session.sessionId);
    expect(key.body.data.sessionId).toBe(session.sessionId);
    expect((await answerKey(other, session.sessionId)).status).toBe(404);
    expect((await answerKey(userId, 'ver_doesNotExist1234')).status).toBe(404);
    expect((await answerKey(userId, session.sessionId, await app.token(client, 'write'))).status).toBe(403);
    const noSession = await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers`, { token });
    expect(noSession.status).toBe(400);
    expect(noSession.body.error.details.map((d: { field: string }) => d.field)).toEqual(['query.sessionId']);
  });
});
