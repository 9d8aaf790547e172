import { defineOperation } from '../operation.ts';
import {
  MANUAL_REFRESH_INTERVAL_HOURS,
  ZCreditHistoryQuery,
  ZCreditScore,
  ZCreditScoreRefreshResult,
  ZScoreHistoryEntry,
} from '../resources/credit.ts';
import { ZCreditReport, ZSimulation, ZSimulationInput } from '../resources/credit-report.ts';
import { ZUserIdParams } from '../resources/users.ts';

export const getCreditScore = defineOperation({
  operationId: 'getCreditScore',
  method: 'get',
  path: '/v1/users/{userId}/credit-score',
  tag: 'Credit scores',
  summary: 'Get the current credit score',
  description:
    'VantageScore 3.0 (300–850) with its rating band, bureau, the five score factors and the 3-month trend. ' +
    'The user must be `active` (enrolled and verified), else `403 USER_NOT_ENROLLED`. ' +
    'Sandbox: a user enrolled with ssn `0000` has a frozen file and answers `403 CREDIT_FROZEN`. ' +
    'Production answers `503 SERVICE_UNAVAILABLE` when the credit bureau cannot be reached.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The current credit score.', data: ZCreditScore },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});

export const listCreditScoreHistory = defineOperation({
  operationId: 'listCreditScoreHistory',
  method: 'get',
  path: '/v1/users/{userId}/credit-score/history',
  tag: 'Credit scores',
  summary: 'List past credit scores',
  description:
    'One entry per monthly score over the last `months` months (default 12, at most 84), most recent first, ' +
    'paginated. Same access rules as the current score: `active` users only; sandbox ssn `0000` answers ' +
    '`403 CREDIT_FROZEN`.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, query: ZCreditHistoryQuery },
  success: {
    status: 200,
    description: 'A page of score history, most recent first.',
    data: ZScoreHistoryEntry,
    list: true,
  },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});

export const refreshCreditScore = defineOperation({
  operationId: 'refreshCreditScore',
  method: 'post',
  path: '/v1/users/{userId}/credit-score/refresh',
  tag: 'Credit scores',
  summary: 'Refresh the credit score now',
  description:
    'Pulls the user’s credit file from the bureau now, outside the monitoring schedule, and answers the new score ' +
    'with `previousScore`. Like a scheduled refresh it appends a history point, emits `score.updated` ' +
    '(and `score.changed` past 10 points) and raises alerts for what changed on the file. A bureau pull is billed, so ' +
    `a user can be refreshed at most once every ${MANUAL_REFRESH_INTERVAL_HOURS} hours: the next call answers ` +
    '`429 RATE_LIMIT_EXCEEDED` with `Retry-After` (seconds until allowed); `monitoring.refreshAvailableAt` on the user ' +
    'says when. `403 USER_NOT_ENROLLED` until the user is verified; `403 CREDIT_FROZEN` for a frozen file. No body.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The refreshed credit score.', data: ZCreditScoreRefreshResult },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});

export const getCreditReport = defineOperation({
  operationId: 'getCreditReport',
  method: 'get',
  path: '/v1/users/{userId}/credit-report',
  tag: 'Credit scores',
  summary: 'Get the credit report behind the score',
  description:
    'The full report from the file on record (the last pull; reading it never pulls again): a summary whose figures ' +
    'are the score factors’ own, every account with its 24-month payment history, inquiries of the last 24 months, ' +
    'public records, and the personal information on file with street lines and employers masked. Same access rules ' +
    'as the current score: `active` users only, consent required; sandbox ssn `0000` answers `403 CREDIT_FROZEN`.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The credit report.', data: ZCreditReport },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});

export const simulateCreditScore = defineOperation({
  operationId: 'simulateCreditScore',
  method: 'post',
  path: '/v1/users/{userId}/credit-score/simulations',
  tag: 'Credit scores',
  summary: 'Simulate the score after some actions',
  description:
    'What-if: the score on record, the estimated score after `actions` (pay a balance down, pay on time for N months, ' +
    'open a card, take a loan, close an account, miss a payment, a hard inquiry, raise a credit line), the change, ' +
    'each factor before and after, and a disclaimer to show with it. Stores nothing and pulls nothing: the same ' +
    'actions on the same file on record answer the same figures. Accounts are named by the `accountId` of ' +
    '`GET …/credit-report`; an action that does not fit its account (paying more than the balance, closing a closed ' +
    'account) answers `400 VALIDATION_ERROR` naming the action. Same access rules as the current score.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, body: ZSimulationInput },
  success: { status: 200, description: 'The simulated score.', data: ZSimulation },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED', 'CONSENT_REQUIRED', 'CREDIT_FROZEN', 'SERVICE_UNAVAILABLE'],
});
