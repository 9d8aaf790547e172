import { defineOperation } from '../operation.ts';
import { ZConsoleLink, ZConsoleLinkInput } from '../resources/console.ts';

export const createConsoleLink = defineOperation({
  operationId: 'createConsoleLink',
  method: 'post',
  path: '/v1/console/links',
  tag: 'Console',
  summary: 'Sign a staff member in to the console',
  description:
    'A one-time link to your console (`/console`) for one of your staff, valid for ten minutes: opening it signs ' +
    'them in for eight hours as `viewer` or `editor`, with no password. Call it from your own admin tools, where you ' +
    'already know who the staff member is, and send them straight to the `url`. The token in it is stored only as a ' +
    'hash and works once. Minting it, the sign-in and every action in the console are on your audit trail under the ' +
    'staff member’s id (docs/partner/console.md).',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'auth',
  request: { body: ZConsoleLinkInput },
  success: { status: 201, description: 'The link.', data: ZConsoleLink },
  errors: [],
});
