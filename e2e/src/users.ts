import { MAX_FAILED_SESSIONS, type TEnrollmentInput, type TOffer } from '@credit/contract';
import { bearerAuth, CreditClient } from '@credit/sdk';
import { generateCreditFile } from '../../apps/bff/src/bureau/sandbox/generate-file.ts';
import { SANDBOX_SSN } from '../../apps/bff/src/bureau/sandbox/sandbox-bureau.ts';
import { datedCatalogue, isActive } from '../../apps/bff/src/modules/offers/catalogue.ts';
import { rankForUser } from '../../apps/bff/src/modules/offers/ranking.ts';
import { refinanceableAccounts } from '../../apps/bff/src/modules/offers/savings.ts';
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

/** Enrolments `enrolActiveUserWithSavings` makes before it gives up. */
const SAVINGS_ATTEMPTS = 15;
/** Last names it screens for them: about one in fifteen sandbox files has an account an offer refinances for less. */
const SAVINGS_CANDIDATES = 2_000;

/**
 * Whether the sandbox file of Jane with `lastName` would, on `now`, have an offer carrying `estimatedSavings`: the
 * bureau's generator and the offers' own ranking, in this process. A guess to pick whom to enrol, never the answer.
 */
const looksLikeSaver = (lastName: string, now: Date): boolean => {
  const { score: _score, bureau: _bureau, ssn, ...identity } = JANE;
  const file = generateCreditFile({ userId: 'screen', ...identity, lastName, ssnLast4: ssn }, now);
  const score = file.monthlyScores.at(-1)?.score;
  if (score === undefined) return false;
  const active = datedCatalogue(now).filter((offer) => isActive(offer, now));
  return rankForUser(
    active,
    score,
    refinanceableAccounts(file, now, (id) => id),
  ).some((r) => r.estimatedSavings);
};

export interface SaverUser {
  externalUserId: string;
  userId: string;
  /** The user's offers as the API lists them (the widget's first page), at least one with `estimatedSavings`. */
  offers: TOffer[];
}

/**
 * Enrols and verifies Jane under other last names until the API lists an offer with `estimatedSavings` for one, at
 * most SAVINGS_ATTEMPTS times. Blind tries would miss a third of the time, so the names enrolled are those the
 * sandbox's own file and ranking say should have savings; the API's offers decide, and none at all is a failure.
 */
export const enrolActiveUserWithSavings = async (app: TestApp, accessToken: string, prefix: string): Promise<SaverUser> => {
  const now = app.clock.now();
  const tried: string[] = [];
  for (let n = 0; n < SAVINGS_CANDIDATES && tried.length < SAVINGS_ATTEMPTS; n += 1) {
    const lastName = `Saver${n}`;
    if (!looksLikeSaver(lastName, now)) continue;
    const externalUserId = newExternalUserId(prefix);
    const userId = await enrolActiveUser(app, accessToken, externalUserId, { lastName });
    tried.push(lastName);
    const offers = await partnerSdk(app, accessToken).call('listUserOffers', { params: { userId }, query: { limit: 50 } });
    if (offers.data.some((offer) => offer.estimatedSavings)) return { externalUserId, userId, offers: offers.data };
  }
  if (tried.length === 0) {
    throw new Error(`None of ${SAVINGS_CANDIDATES} sandbox files (Jane as Saver0…) has an offer with savings this month`);
  }
  throw new Error(
    `No offer with estimatedSavings for any of the ${tried.length} sandbox user(s) enrolled (Jane as ${tried.join(', ')}), ` +
      "though the sandbox's file and the offers' ranking predicted savings for each",
  );
};
