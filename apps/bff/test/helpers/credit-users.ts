import { expect } from 'vitest';
import { enrollment, type TestApp } from './harness.ts';

/** The consent record a partner attests at enrolment (required in production), given now on the app's clock. */
export const partnerConsent = (app: TestApp, overrides: Record<string, unknown> = {}) => ({
  termsVersion: app.ctx.config.CONSENT_TERMS_VERSION,
  acceptedAt: app.clock.now().toISOString(),
  method: 'partner_attested',
  ...overrides,
});

/**
 * Enrols a user over HTTP and returns its id (status `pending_verification`). In production, where an enrolment must
 * carry the consumer's consent, a partner-attested one is added unless `overrides` brings its own.
 */
export const enrolUser = async (app: TestApp, token: string, overrides: Record<string, unknown> = {}): Promise<string> => {
  const consent = app.ctx.config.APP_ENV === 'production' && !('consent' in overrides) ? { consent: partnerConsent(app) } : {};
  const res = await app.request('POST', '/v1/users/enroll', { token, body: enrollment({ ...consent, ...overrides }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.userId as string;
};

/** Passes identity verification the way a sandbox test suite would: questions → sandbox answers → answers. */
export const verifyUser = async (app: TestApp, adminToken: string, userId: string): Promise<void> => {
  const questions = await app.request('GET', `/v1/users/${userId}/verification/questions`, { token: adminToken });
  expect(questions.status, JSON.stringify(questions.body)).toBe(200);
  const sessionId = questions.body.data.sessionId as string;
  const key = await app.request('GET', `/v1/sandbox/users/${userId}/verification/answers?sessionId=${sessionId}`, {
    token: adminToken,
  });
  expect(key.status, JSON.stringify(key.body)).toBe(200);
  const result = await app.request('POST', `/v1/users/${userId}/verification/answers`, {
    token: adminToken,
    body: { sessionId, answers: key.body.data.answers },
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  expect(result.body.data.verified).toBe(true);
};

/** An `active` user (enrolled and verified); `adminToken` needs the admin scope for the sandbox answer key. */
export const enrolActiveUser = async (
  app: TestApp,
  adminToken: string,
  overrides: Record<string, unknown> = {},
): Promise<string> => {
  const userId = await enrolUser(app, adminToken, overrides);
  await verifyUser(app, adminToken, userId);
  return userId;
};
