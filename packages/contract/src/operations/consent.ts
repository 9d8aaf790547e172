import { defineOperation } from '../operation.ts';
import {
  CONSENT_HISTORY_LIMIT,
  ZConsentRecord,
  ZConsentState,
  ZGrantConsentInput,
  ZListConsentHistoryQuery,
} from '../resources/consent.ts';
import { ZUserIdParams } from '../resources/users.ts';

export const getConsent = defineOperation({
  operationId: 'getConsent',
  method: 'get',
  path: '/v1/users/{userId}/consent',
  tag: 'Consent',
  summary: 'Get the user’s consent and its history',
  description:
    'The consent every bureau pull rests on (null when there is none), whether the consumer must consent again before ' +
    `anything is pulled (\`reconsentRequired\`), the current terms version and the ${CONSENT_HISTORY_LIMIT} most recent records ` +
    '(every record: `GET /v1/users/{userId}/consent/history`).',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The consent state.', data: ZConsentState },
  errors: ['NOT_FOUND'],
});

export const grantConsent = defineOperation({
  operationId: 'grantConsent',
  method: 'post',
  path: '/v1/users/{userId}/consent',
  tag: 'Consent',
  summary: 'Record (or renew) the user’s consent',
  description:
    'Records the consumer’s instruction to pull their credit file for credit monitoring, under `termsVersion` (which ' +
    'must be the current terms version). A new consent replaces the current one (`superseded`) and runs for the ' +
    'validity period from `acceptedAt`: granting again renews it. With a user token (the widget) the method is `widget` ' +
    'and the IP address and user agent are taken from the request; with an access token send `partner_attested` and, ' +
    'when you have them, where and in which browser the consumer accepted. Monitoring resumes at once.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZUserIdParams, body: ZGrantConsentInput },
  success: { status: 201, description: 'The consent state with the new record current.', data: ZConsentState },
  errors: ['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
});

export const withdrawConsent = defineOperation({
  operationId: 'withdrawConsent',
  method: 'post',
  path: '/v1/users/{userId}/consent/withdraw',
  tag: 'Consent',
  summary: 'Withdraw the user’s consent',
  description:
    'The consumer withdraws their instruction (the widget calls this with a user token; you may call it on their ' +
    'behalf). Nothing is pulled from then on: monitoring is `paused` (`consent_withdrawn`) at once, every credit route ' +
    'answers `403 CONSENT_REQUIRED`, and `consent.withdrawn` is sent to your webhooks. What we already hold is kept ' +
    'until the user is deleted (`DELETE /v1/users/{userId}` erases it). Withdrawing without a current consent ' +
    'changes nothing and answers the same state. No body.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The consent state, with no current consent.', data: ZConsentState },
  errors: ['NOT_FOUND', 'IDEMPOTENCY_CONFLICT'],
});

export const listConsentHistory = defineOperation({
  operationId: 'listConsentHistory',
  method: 'get',
  path: '/v1/users/{userId}/consent/history',
  tag: 'Consent',
  summary: 'List every consent record of the user',
  description:
    'Every consent the user has given, withdrawn, renewed or let expire, newest first by default (`sort=recordedAt` ' +
    `for oldest first), a page at a time: the consent state (\`GET …/consent\`) lists the ${CONSENT_HISTORY_LIMIT} most ` +
    'recent only. Each record’s `status` is as of now; withdrawn, expired and superseded records stay listed.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, query: ZListConsentHistoryQuery },
  success: { status: 200, description: 'A page of consent records.', data: ZConsentRecord, list: true },
  errors: ['NOT_FOUND'],
});
