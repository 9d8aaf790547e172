import { defineOperation } from '../operation.ts';
import { ZWidgetSession, ZWidgetSessionInput, ZWidgetSessionStatus } from '../resources/widget.ts';
import { z } from '../zod.ts';

export const createWidgetSession = defineOperation({
  operationId: 'createWidgetSession',
  method: 'post',
  path: '/widget/session',
  tag: 'Widget',
  summary: 'Exchange a user token for a widget session (used by the widget frame)',
  description:
    'Called by the widget frame, not by partners. Sets a `cw_session_<16 hex>` cookie, one per session, (`HttpOnly; Secure; SameSite=None; ' +
    'Partitioned`) that stands in for the user token until it expires, and returns the CSRF token every cookie-authenticated ' +
    'request must echo in `x-widget-csrf`. `403 AUTHORIZATION_ERROR` when `parentOrigin` is not one of the client’s embed origins.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'self', userTokenOnly: true },
  rateLimit: 'userOps',
  request: { body: ZWidgetSessionInput },
  success: { status: 201, description: 'The session; the cookie is in `Set-Cookie`.', data: ZWidgetSession },
  errors: [],
});

export const getWidgetSession = defineOperation({
  operationId: 'getWidgetSession',
  method: 'get',
  path: '/widget/session',
  tag: 'Widget',
  summary: 'Check the widget session',
  description:
    'Answers `200` when the request is authenticated, by the session cookie plus `x-widget-csrf` or by a user token. The frame ' +
    'calls it right after creating a session with the cookie alone: a `401` means the browser refused the cookie, and the ' +
    'frame goes on with the user token as a bearer token.',
  auth: { kind: 'bearer', scope: 'read', userToken: 'self', userTokenOnly: true },
  rateLimit: 'userOps',
  request: { query: z.strictObject({}) },
  success: { status: 200, description: 'Who the session belongs to.', data: ZWidgetSessionStatus },
  errors: [],
});
