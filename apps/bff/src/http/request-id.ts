import type { RequestHandler } from 'express';
import { randomToken } from '../lib/ids.ts';

// A caller's id is echoed only when it is short and printable, so it cannot break headers or logs.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && ACCEPTABLE.test(given) ? given : `req_${randomToken(20)}`;
  req.requestId = id;
  res.setHeader('X-Request-ID', id);
  next();
};
