import { defineOperation } from '../operation.ts';
import { ZTokenRequest, ZTokenResponse, ZUserTokenRequest, ZUserTokenResponse } from '../resources/auth.ts';

export const createAccessToken = defineOperation({
  operationId: 'createAccessToken',
  method: 'post',
  path: '/oauth/token',
  tag: 'Authentication',
  summary: 'Obtain an access token (OAuth 2.0 client credentials)',
  description:
    'RFC 6749 §4.4. Send `client_id`/`client_secret` as form fields (`client_secret_post`) or as HTTP Basic (`client_secret_basic`). ' +
    'Errors use the RFC body `{error, error_description}`, not the API envelope. Tokens last 3600 s.',
  auth: { kind: 'client-credentials' },
  rateLimit: 'auth',
  request: { body: ZTokenRequest, bodyType: 'application/x-www-form-urlencoded' },
  success: { status: 200, description: 'A bearer access token.', data: ZTokenResponse, raw: true },
  errors: [],
});

export const createUserToken = defineOperation({
  operationId: 'createUserToken',
  method: 'post',
  path: '/v1/auth/user-token',
  tag: 'Authentication',
  summary: 'Mint a user token for the widget or a mobile app',
  description:
    'A `ut_…` token scoped to one of your users, valid for 1 hour. It is accepted only by `GET /v1/me`, ' +
    '`POST /v1/users/enroll` (self-enrolment) and the `/v1/users/{userId}/…` routes of its own user.',
  auth: { kind: 'bearer', scope: 'write' },
  rateLimit: 'auth',
  idempotent: true,
  request: { body: ZUserTokenRequest },
  success: { status: 201, description: 'The user token.', data: ZUserTokenResponse },
  errors: [],
});
