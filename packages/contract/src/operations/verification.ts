import { defineOperation } from '../operation.ts';
import { ZUserIdParams } from '../resources/users.ts';
import { ZVerificationAnswersInput, ZVerificationResult, ZVerificationSession } from '../resources/verification.ts';

export const getVerificationQuestions = defineOperation({
  operationId: 'getVerificationQuestions',
  method: 'get',
  path: '/v1/users/{userId}/verification/questions',
  tag: 'Identity verification',
  summary: 'Start an identity-verification session',
  description:
    'Starts a session of 3 multiple-choice questions (5 options each, the last “None of the above”) built from the ' +
    'user’s credit file: past addresses, lenders, loan amounts, birth year, or, while the user’s session is open ' +
    '(unanswered, before `expiresAt`), answers that same session without asking the bureau again. The session ' +
    'expires after 10 minutes. A user starts at most 5 new sessions in 24 hours (`429 RATE_LIMIT_EXCEEDED` with ' +
    '`Retry-After`); the bureau’s capacity is shared fairly between clients (`429` past your share). ' +
    'After 3 failed sessions within 24 h verification is locked for 24 h: `403 VERIFICATION_LOCKED` with ' +
    '`unlocksAt`. ' +
    'Sandbox: `GET /v1/sandbox/users/{userId}/verification/answers` returns the right answers.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The user’s open verification session, or a new one.', data: ZVerificationSession },
  errors: ['NOT_FOUND', 'CONSENT_REQUIRED', 'VERIFICATION_LOCKED', 'SERVICE_UNAVAILABLE'],
});

export const submitVerificationAnswers = defineOperation({
  operationId: 'submitVerificationAnswers',
  method: 'post',
  path: '/v1/users/{userId}/verification/answers',
  tag: 'Identity verification',
  summary: 'Answer the questions of a verification session',
  description:
    'Passes only when every answer is right: the user becomes `active` and `user.verified` is emitted. ' +
    'A failure answers `200` with `verified: false` and `attemptsRemaining`; the failure that locks verification ' +
    'also carries `unlocksAt`. ' +
    'Each session can be answered once: an expired, already-used or foreign `sessionId` is `400 VALIDATION_ERROR`. ' +
    'Sandbox: a user enrolled with ssn `9999` always fails.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, body: ZVerificationAnswersInput },
  success: { status: 200, description: 'The outcome of the session.', data: ZVerificationResult },
  errors: ['NOT_FOUND', 'CONSENT_REQUIRED', 'VERIFICATION_LOCKED', 'SERVICE_UNAVAILABLE'],
});
