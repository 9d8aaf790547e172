import type { ServerResponse } from 'node:http';
import { type ClockScope, endClockScope, enterClockScope } from '../../lib/clock.ts';

/**
 * Runs each request in a fresh clock scope (lib/clock.ts): real time until the users service finds the request is
 * about a user on a sandbox test clock and sets the clock's time. Ended when the response is done, so nothing the
 * request leaves behind (a pooled connection's callbacks) reads its clock later.
 */
export const clockScopePerRequest = (method: string, res: ServerResponse, serve: () => void): void => {
  const scope: ClockScope = { at: null, writes: method !== 'GET' && method !== 'HEAD' };
  res.once('close', () => endClockScope(scope));
  enterClockScope(scope, serve);
};
