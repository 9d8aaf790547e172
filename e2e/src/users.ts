import { MAX_FAILED_SESSIONS, type TEnrollmentInput, type TOffer } from '@credit/contract';
import { bearerAuth, CreditClient } from '@credit/sdk';
import { generateCreditFile } from '../../apps/bff/src/bureau/sandbox/generate-file.ts';
import { SANDBOX_SSN } from '../../apps/bff/src/bureau/sandbox/sandbox-bureau.ts';
import type { TestApp } from '../../apps/bff/test/helpers/harness.ts';

export { SANDBOX_SSN };

const JANE_IDENTITY = {
  firstName: 'Jane',
  lastName: 'Doe',
  ssn: '1234',
  dateOfBirth: '1985-04-12',
  address: { street: '123 Main St', city: 'Springfield', state: 'IL', zipCode: '62701' },
} as const;

/**
 * Jane's synthetic file today. The sandbox file moves month by month (a base file plus each month's events), so
 * her score is read from the same generator the API pulls from, not written down.
 */
const janeFile = generateCreditFile({ userId: 'jane', ...JANE_IDENTITY, ssnLast4: JANE_IDENTITY.ssn }, new Date());

/** The sandbox identity the journeys enrol, with the score and bureau the widget shows for her today. */
export const JANE = {
  ...JANE_IDENTITY,
  score: janeFile.monthlyScores.at(-1)?.score ?? Number.NaN,
  bureau: janeFile.bureau,
} as const;

/** The SDK as the partner whose access token the journey holds (the token may come from a moved clock). */
const partnerSdk = (app: TestApp, accessToken: string) =>
  new CreditClient({ baseUrl: app.url, auth: bearerAuth(() => accessToken) });

export const newExternalUserId = (prefix = 'e2e') => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

/** The API's id of the user the partner enrolled as `externalUserId`, or undefined while not enrolled. */
export const findUserId = async (app: TestApp, accessToken: string, externalUserId: string): Promise<string | undefined> => {
  const page = await partnerSdk(app, accessToken).call('listUsers', { query: { externalUserId } });
  return page.data[0]?.userId;
};

/** A sandbox identity: Jane's shape, any values. */
type Identity = Pick<TEnrollmentInput, 'firstName' | 'lastName' | 'ssn' | 'dateOfBirth' | 'address'>;

/** Enrols (without verifying) Jane, or Jane with some details changed, e.g. `ssn` to pick a sandbox behaviour. */
export const enrolUser = async (
  app: TestApp,
  accessToken: string,
  externalUserId: string,
  changes: Partial<Identity> = {},
): Promise<string> => {
  const { score: _score, bureau: _bureau, ...identity } = JANE;
  const enrolled = await partnerSdk(app, accessToken).call('enrollUser', {
    body: { ...identity, ...changes, externalUserId, email: `${externalUserId}@example.test` },
  });
  return enrolled.userId;
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
  const sdk = partnerSdk(app, accessToken);
  const { sessionId } = await sdk.call('getVerificationQuestions', { params: { userId } });
  const answers = await sandboxAnswers(app, accessToken, userId, sessionId);
  const result = await sdk.call('submitVerificationAnswers', { params: { userId }, body: { sessionId, answers } });
  if (!result.verified) throw new Error(`verification failed: ${JSON.stringify(result)}`);
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
  const key = await partnerSdk(app, accessToken).call('sandboxGetVerificationAnswers', {
    params: { userId },
    query: { sessionId },
  });
  return key.answers;
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
  const sdk = partnerSdk(app, accessToken);
  for (let attempt = 1; attempt <= MAX_FAILED_SESSIONS; attempt += 1) {
    const { sessionId } = await sdk.call('getVerificationQuestions', { params: { userId } });
    const answers = await sandboxAnswers(app, accessToken, userId, sessionId);
    const result = await sdk.call('submitVerificationAnswers', { params: { userId }, body: { sessionId, answers } });
    if (result.verified) throw new Error(`SSN ${SANDBOX_SSN.failsVerification} passed verification: ${JSON.stringify(result)}`);
  }
  return userId;
};

/**
 * Enrolments `enrolActiveUserWithSavings` makes before it gives up: story 1004's files carry the costly rates of weaker
 * years, and all but a few in a hundred have an offer that refinances one of their accounts for less.
 */
const SAVINGS_ATTEMPTS = 5;

export interface SaverUser {
  externalUserId: string;
  userId: string;
  /** The user's offers as the API lists them (the widget's first page), at least one with `estimatedSavings`. */
  offers: TOffer[];
}

/** Enrols and verifies Jane with story ssn 1004, under other last names, until the API lists an offer with savings. */
export const enrolActiveUserWithSavings = async (app: TestApp, accessToken: string, prefix: string): Promise<SaverUser> => {
  const tried: string[] = [];
  for (let n = 0; n < SAVINGS_ATTEMPTS; n += 1) {
    const lastName = `Saver${n}`;
    const externalUserId = newExternalUserId(prefix);
    const userId = await enrolActiveUser(app, accessToken, externalUserId, { lastName, ssn: SANDBOX_SSN.costlyCreditStory });
    tried.push(lastName);
    const offers = await partnerSdk(app, accessToken).call('listUserOffers', { params: { userId }, query: { limit: 50 } });
    if (offers.data.some((offer) => offer.estimatedSavings)) return { externalUserId, userId, offers: offers.data };
  }
  throw new Error(`No offer with estimatedSavings for story 1004's Jane as ${tried.join(', ')}`);
};
