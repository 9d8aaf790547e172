import { defineOperation } from '../operation.ts';
import {
  ZBatchEnrollRequest,
  ZBatchEnrollResult,
  ZBatchMeta,
  ZDeletedUser,
  ZEnrolledUser,
  ZEnrollRequest,
  ZListUsersQuery,
  ZUser,
  ZUserIdParams,
} from '../resources/users.ts';
import { z } from '../zod.ts';

export const enrollUser = defineOperation({
  operationId: 'enrollUser',
  method: 'post',
  path: '/v1/users/enroll',
  tag: 'Users',
  summary: 'Enrol a user',
  description:
    'With an access token send the full enrollment input. With a user token send only `ssn`, `dateOfBirth`, `address` ' +
    'and `phone`: `externalUserId`, e-mail and names come from the token. The user starts `pending_verification`.',
  auth: { kind: 'bearer', scope: 'write', userToken: 'self' },
  rateLimit: 'userOps',
  idempotent: true,
  request: { body: ZEnrollRequest },
  success: { status: 201, description: 'The enrolled user.', data: ZEnrolledUser },
  errors: ['USER_EXISTS', 'IDEMPOTENCY_CONFLICT'],
});

export const enrollUsersBatch = defineOperation({
  operationId: 'enrollUsersBatch',
  method: 'post',
  path: '/v1/users/enroll/batch',
  tag: 'Users',
  summary: 'Enrol up to 1,000 users in one request',
  description:
    'Each item is validated and enrolled on its own: the response is `200` with the successful and failed items and counts in `meta`.',
  auth: { kind: 'bearer', scope: 'write' },
  rateLimit: 'batch',
  idempotent: true,
  request: { body: ZBatchEnrollRequest },
  success: { status: 200, description: 'Per-item results.', data: ZBatchEnrollResult, meta: ZBatchMeta },
  errors: ['IDEMPOTENCY_CONFLICT'],
});

export const listUsers = defineOperation({
  operationId: 'listUsers',
  method: 'get',
  path: '/v1/users',
  tag: 'Users',
  summary: 'List enrolled users',
  auth: { kind: 'bearer', scope: 'read' },
  rateLimit: 'userOps',
  request: { query: ZListUsersQuery },
  success: { status: 200, description: 'A page of users.', data: ZUser, list: true },
  errors: [],
});

export const getUser = defineOperation({
  operationId: 'getUser',
  method: 'get',
  path: '/v1/users/{userId}',
  tag: 'Users',
  summary: 'Get a user',
  auth: { kind: 'bearer', scope: 'read', userToken: 'own-user' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'The user.', data: ZUser },
  errors: ['NOT_FOUND'],
});

export const deleteUser = defineOperation({
  operationId: 'deleteUser',
  method: 'delete',
  path: '/v1/users/{userId}',
  tag: 'Users',
  summary: 'Delete a user',
  description:
    'The user disappears from every read at once and `user.deleted` is emitted; personal data is erased within 30 days.',
  auth: { kind: 'bearer', scope: 'write' },
  rateLimit: 'userOps',
  request: { params: ZUserIdParams },
  success: { status: 200, description: 'Deletion accepted.', data: ZDeletedUser },
  errors: ['NOT_FOUND'],
});

export const getMe = defineOperation({
  operationId: 'getMe',
  method: 'get',
  path: '/v1/me',
  tag: 'Users',
  summary: 'The user a user token belongs to',
  description: 'User tokens only. Answers `403 USER_NOT_ENROLLED` until the token’s user has enrolled.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'self', userTokenOnly: true },
  rateLimit: 'userOps',
  request: { query: z.strictObject({}) },
  success: { status: 200, description: 'The enrolled user.', data: ZUser },
  errors: ['USER_NOT_ENROLLED'],
});
