import { defineOperation } from '../operation.ts';
import {
  ZAdvanceClockInput,
  ZAttachClockUsersInput,
  ZClockIdParams,
  ZCreateClockInput,
  ZListClocksQuery,
  ZSandboxClock,
} from '../resources/sandbox-clocks.ts';

export const createSandboxClock = defineOperation({
  operationId: 'createSandboxClock',
  method: 'post',
  path: '/v1/sandbox/clocks',
  tag: 'Sandbox',
  summary: 'Create a test clock (sandbox)',
  description:
    'A clock frozen at `frozenTime` (now by default; a time in the past is `400`). Attach users to it, then advance it: ' +
    'the monitoring of every period they skipped runs as the scheduler would have run it, dated in clock time.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  idempotent: true,
  sandboxOnly: true,
  request: { body: ZCreateClockInput },
  success: { status: 201, description: 'The new clock, `ready`.', data: ZSandboxClock },
  errors: [],
});

export const listSandboxClocks = defineOperation({
  operationId: 'listSandboxClocks',
  method: 'get',
  path: '/v1/sandbox/clocks',
  tag: 'Sandbox',
  summary: 'List test clocks (sandbox)',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  sandboxOnly: true,
  request: { query: ZListClocksQuery },
  success: { status: 200, description: 'A page of clocks.', data: ZSandboxClock, list: true },
  errors: [],
});

export const getSandboxClock = defineOperation({
  operationId: 'getSandboxClock',
  method: 'get',
  path: '/v1/sandbox/clocks/{clockId}',
  tag: 'Sandbox',
  summary: 'Get a test clock (sandbox)',
  description: 'Poll `status` after an advance, or wait for `sandbox.clock.ready`.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  sandboxOnly: true,
  request: { params: ZClockIdParams },
  success: { status: 200, description: 'The clock.', data: ZSandboxClock },
  errors: [],
});

export const attachSandboxClockUsers = defineOperation({
  operationId: 'attachSandboxClockUsers',
  method: 'post',
  path: '/v1/sandbox/clocks/{clockId}/users',
  tag: 'Sandbox',
  summary: 'Attach users to a test clock (sandbox)',
  description:
    'From now on the users live at the clock’s time: their history windows, score and alert dates, monitoring ' +
    'schedule and refresh-now limit follow it. Access tokens keep real time. All listed users are attached or none: ' +
    'an id that is unknown or another client’s is `404`; a user already on a clock, or one past the clock’s 100, is ' +
    '`400` naming `userIds.N`.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  idempotent: true,
  sandboxOnly: true,
  request: { params: ZClockIdParams, body: ZAttachClockUsersInput },
  success: { status: 200, description: 'The clock with its new `userCount`.', data: ZSandboxClock },
  errors: ['CLOCK_ADVANCING'],
});

export const advanceSandboxClock = defineOperation({
  operationId: 'advanceSandboxClock',
  method: 'post',
  path: '/v1/sandbox/clocks/{clockId}/advance',
  tag: 'Sandbox',
  summary: 'Advance a test clock (sandbox)',
  description:
    'Moves the clock forward to `frozenTime` (after the current one, at most 2 years on; otherwise `400` naming ' +
    '`frozenTime`). The answer is `advancing`; the worker then runs, for every attached user and in order, each ' +
    'monitoring period due up to the new time, exactly as the scheduler would have: a history point per period, ' +
    'alerts from the file’s differences, `score.updated`, `score.changed` and `alert.created` dated in clock time. ' +
    'Then the clock is `ready` at its new time and `sandbox.clock.ready` is sent. 24 months for 100 users take under a minute.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  idempotent: true,
  sandboxOnly: true,
  request: { params: ZClockIdParams, body: ZAdvanceClockInput },
  success: {
    status: 202,
    description: 'The clock, `advancing` (its `frozenTime` moves when it is `ready`).',
    data: ZSandboxClock,
  },
  errors: ['CLOCK_ADVANCING'],
});

export const deleteSandboxClock = defineOperation({
  operationId: 'deleteSandboxClock',
  method: 'delete',
  path: '/v1/sandbox/clocks/{clockId}',
  tag: 'Sandbox',
  summary: 'Delete a test clock and its users (sandbox)',
  description:
    'Deletes the clock and every user on it, as `DELETE /v1/users/{userId}` does (their files live in the clock’s ' +
    'future): they are gone from reads and `user.deleted` is sent for each. `409 CLOCK_ADVANCING` while it advances.',
  auth: { kind: 'bearer', scope: 'admin' },
  rateLimit: 'userOps',
  sandboxOnly: true,
  request: { params: ZClockIdParams },
  success: { status: 204, description: 'Deleted; no body.' },
  errors: ['CLOCK_ADVANCING'],
});
