import type { RequestHandler } from 'express';
import { type ClockScope, endClockScope, enterClockScope } from '../../lib/clock.ts';

/**
 * Runs each request in a fresh clock scope (lib/clock.ts): real time until the users service finds the request is
 * about a user on a sandbox test clock and sets the clock's time. Ended when the response is done, so nothing the
 * request leaves behind (a pooled connection's callbacks) reads its clock later.
 */
export const clockScopePerRequest: RequestHandler = (req, res, next) => {
  const scope: ClockScope = { at: null, writes: req.method !== 'GET' && req.method !== 'HEAD' };
  res.once('close', () => endClockScope(scope));
  enterClockScope(scope, next);
};
