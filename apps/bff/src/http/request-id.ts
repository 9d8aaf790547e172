import type { ServerResponse } from 'node:http';
import { randomToken } from '../lib/ids.ts';
import type { HttpRequest } from './api-request.ts';

// A caller's id is echoed only when it is short and printable, so it cannot break headers or logs.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Our ids: `req_` + 20 letters and digits, a random prefix drawn once per process and a counter, so no request
 * pays for random bytes. Unique across processes (the prefix), not secret (they are echoed in every answer).
 */
const PROCESS_PREFIX = randomToken(9);
let counter = 0;
const nextRequestId = (): string => {
  counter = (counter + 1) % 36 ** 11;
  return `req_${PROCESS_PREFIX}${counter.toString(36).padStart(11, '0')}`;
};

/**
 * Every request gets our own id (`meta.requestId`, the logs, the audit trail). A caller's own `X-Request-ID` is its
 * correlation id: echoed in the `X-Request-ID` header and logged beside ours, never used as ours, so no caller can
 * write another's id (or a partner's own) into a trail.
 */
export const assignRequestId = (req: HttpRequest, res: ServerResponse): void => {
  const given = req.headers['x-request-id'];
  const id = nextRequestId();
  req.requestId = id;
  req.correlationId = typeof given === 'string' && ACCEPTABLE.test(given) ? given : undefined;
  res.setHeader('X-Request-ID', req.correlationId ?? id);
};
