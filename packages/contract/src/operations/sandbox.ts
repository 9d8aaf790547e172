import { defineOperation } from '../operation.ts';
import { ZAlert } from '../resources/alerts.ts';
import { ZUserOfferParams } from '../resources/offers.ts';
import {
  ZSandboxConversion,
  ZSandboxCreateAlertInput,
  ZSandboxScoreRefreshInput,
  ZSandboxScoreRefreshResult,
  ZSandboxVerificationAnswers,
  ZSandboxVerificationAnswersQuery,
} from '../resources/sandbox.ts';
import { ZUserIdParams } from '../resources/users.ts';

export const sandboxRefreshScore = defineOperation({
  operationId: 'sandboxRefreshScore',
  method: 'post',
  path: '/v1/sandbox/users/{userId}/score-refresh',
  tag: 'Sandbox',
  summary: 'Refresh a user’s score (sandbox)',
  description:
    'Records a new score, the given `score` or the next one of the user’s synthetic file, and emits `score.updated`. ' +
    'When it moves by more than 10 points it also emits `score.changed` and creates a `score_change` alert.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  sandboxOnly: true,
  request: { params: ZUserIdParams, body: ZSandboxScoreRefreshInput },
  success: {
    status: 200,
    description: 'The new credit score and the previous score.',
    data: ZSandboxScoreRefreshResult,
  },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN'],
});

export const sandboxCreateAlert = defineOperation({
  operationId: 'sandboxCreateAlert',
  method: 'post',
  path: '/v1/sandbox/users/{userId}/alerts',
  tag: 'Sandbox',
  summary: 'Create an alert of a given type (sandbox)',
  description:
    'Creates an `unread` alert with realistic `data` for the user and emits `alert.created`. ' +
    'A `score_change` alert for a frozen file is `403 CREDIT_FROZEN` (it would reveal the score).',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  idempotent: true,
  sandboxOnly: true,
  request: { params: ZUserIdParams, body: ZSandboxCreateAlertInput },
  success: { status: 201, description: 'The new alert.', data: ZAlert },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN'],
});

export const sandboxConvertOffer = defineOperation({
  operationId: 'sandboxConvertOffer',
  method: 'post',
  path: '/v1/sandbox/users/{userId}/offers/{offerId}/convert',
  tag: 'Sandbox',
  summary: 'Simulate a funded application (sandbox)',
  description:
    'A shortcut over `POST /v1/offers/clicks/{clickId}/outcomes`: records `funded` on the user’s latest click on the ' +
    'offer, for the lowest amount of the customer’s tier, and emits `offer.converted`. Again on a funded click it ' +
    'answers the same conversion; `404 NOT_FOUND` when the user has not clicked the offer yet, `409 ' +
    'OFFER_STATE_CONFLICT` when the application was declined. No body.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  idempotent: true,
  sandboxOnly: true,
  request: { params: ZUserOfferParams },
  success: { status: 201, description: 'The conversion.', data: ZSandboxConversion },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'OFFER_STATE_CONFLICT'],
});

export const sandboxGetVerificationAnswers = defineOperation({
  operationId: 'sandboxGetVerificationAnswers',
  method: 'get',
  path: '/v1/sandbox/users/{userId}/verification/answers',
  tag: 'Sandbox',
  summary: 'Get the right answers of a verification session (sandbox)',
  description:
    'For test suites: the right `answerId` of each question of the user’s session `sessionId`. ' +
    'Submitting them passes, except for a user enrolled with ssn `9999`, whose verification always fails.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  sandboxOnly: true,
  request: { params: ZUserIdParams, query: ZSandboxVerificationAnswersQuery },
  success: { status: 200, description: 'The right answers.', data: ZSandboxVerificationAnswers },
  errors: ['NOT_FOUND'],
});
