import { defineOperation } from '../operation.ts';
import { ZAlert, ZListAlertsQuery, ZUpdateAlertInput, ZUserAlertParams } from '../resources/alerts.ts';
import { ZUserIdParams } from '../resources/users.ts';

export const listAlerts = defineOperation({
  operationId: 'listAlerts',
  method: 'get',
  path: '/v1/users/{userId}/alerts',
  tag: 'Alerts',
  summary: 'List credit-monitoring alerts',
  description:
    'Score changes, new inquiries and accounts, closed accounts, late payments, high utilisation, address changes ' +
    'and fraud alerts, newest first by default. Filter by `status` (`all` by default), `type` and creation window. ' +
    'The user must be `active`. Sandbox: `POST /v1/sandbox/users/{userId}/alerts` creates one on demand.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams, query: ZListAlertsQuery },
  success: { status: 200, description: 'A page of alerts.', data: ZAlert, list: true },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED'],
});

export const updateAlert = defineOperation({
  operationId: 'updateAlert',
  method: 'patch',
  path: '/v1/users/{userId}/alerts/{alertId}',
  tag: 'Alerts',
  summary: 'Mark an alert read',
  description: 'The only change allowed is `{"status": "read"}`; repeating it is harmless. Answers the updated alert.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserAlertParams, body: ZUpdateAlertInput },
  success: { status: 200, description: 'The updated alert.', data: ZAlert },
  errors: ['NOT_FOUND', 'USER_NOT_ENROLLED'],
});
