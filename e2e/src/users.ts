import { MAX_FAILED_SESSIONS } from '@credit/contract';
import { SANDBOX_SSN } from '../../apps/bff/src/bureau/sandbox/sandbox-bureau.ts';
import type { TestApp } from '../../apps/bff/test/helpers/harness.ts';

export { SANDBOX_SSN };

/** The sandbox identity whose synthetic file scores 591 at Experian. */
export const JANE = {
  firstName: 'Jane',
  lastName: 'Doe',
  ssn: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
  score: 591,
  bureau: 'Experian',
} as const;

const expectStatus = (res: { status: number; body: unknown }, status: number, what: string) => {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
};

export const newExternalUserId = (prefix = 'e2e') => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** The API's id of the user the partner enrolled as `externalUserId`, or undefined while not enrolled. */
export const findUserId = async (app: TestApp, accessToken: string, externalUserId: string): Promise<string | undefined> => {
  const res = await app.request('GET', `/v1/users?externalUserId=${encodeURIComponent(externalUserId)}`, { token: accessToken });
  expectStatus(res, 200, 'list users');
  return res.body.data[0]?.userId;
};

/** A sandbox identity: Jane's shape, any values. */
type Identity = {
  [K in keyof Omit<typeof JANE, 'score' | 'bureau'>]: K extends 'address'
    ? { [F in keyof (typeof JANE)['address']]: string }
    : string;
};

/** Enrols (without verifying) Jane, or Jane with some details changed, e.g. `ssn` to pick a sandbox behaviour. */
export const enrolUser = async (
  app: TestApp,
  accessToken: string,
  externalUserId: string,
  changes: Partial<Identity> = {},
): Promise<string> => {
  const { score: _score, bureau: _bureau, ...identity } = JANE;
  const enrol = await app.request('POST', '/v1/users/enroll', {
    token: accessToken,
    body: { ...identity, ...changes, externalUserId, email: `${externalUserId}@example.test` },
  });
  expectStatus(enrol, 201, 'enrol');
  return enrol.body.data.userId as string;
};

/**
 * Enrols and verifies Jane (or Jane with `changes`) through the API, as a partner's back office would: the
 * widget then opens on the dashboard.
 */
export const enrolActiveUser = async (
  app: TestApp,
  accessToken: string,
  externalUserId: string,
  changes: Partial<Identity> = {},
): Promise<string> => {
  const userId = await enrolUser(app, accessToken, externalUserId, changes);
  const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token: accessToken });
  expectStatus(questions, 200, 'verification questions');
  const key = await sandboxAnswers(app, accessToken, userId, questions.body.data.sessionId);
  const result = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
    token: accessToken,
    body: { sessionId: questions.body.data.sessionId, answers: key },
  });
  expectStatus(result, 200, 'verification answers');
  if (!result.body.data.verified) throw new Error(`verification failed: ${JSON.stringify(result.body)}`);
  return userId;
};

export interface AnswerKeyEntry {
  questionId: string;
  answerId: string;
}

export const sandboxAnswers = async (
  app: TestApp,
  accessToken: string,
  userId: string,
  sessionId: string,
): Promise<AnswerKeyEntry[]> => {
  const res = await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`, {
    token: accessToken,
  });
  expectStatus(res, 200, 'sandbox answer key');
  return res.body.data.answers;
};

/**
 * Enrols an identity whose verification always fails and fails it until it locks: the widget then shows
 * the locked screen. `dateOfBirth` keeps this identity's lock away from every other customer of the test.
 */
export const enrolLockedUser = async (
  app: TestApp,
  accessToken: string,
  externalUserId: string,
  dateOfBirth: string,
): Promise<string> => {
  const userId = await enrolUser(app, accessToken, externalUserId, { ssn: SANDBOX_SSN.failsVerification, dateOfBirth });
  for (let attempt = 1; attempt <= MAX_FAILED_SESSIONS; attempt += 1) {
    const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token: accessToken });
    expectStatus(questions, 200, `verification questions, attempt ${attempt}`);
    const { sessionId } = questions.body.data;
    const answers = await sandboxAnswers(app, accessToken, userId, sessionId);
    const result = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
      token: accessToken,
      body: { sessionId, answers },
    });
    expectStatus(result, 200, `verification answers, attempt ${attempt}`);
    if (result.body.data.verified)
      throw new Error(`SSN ${SANDBOX_SSN.failsVerification} passed verification: ${JSON.stringify(result.body)}`);
  }
  return userId;
};
