import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

/** When the response started. */
const STARTED = Symbol('access log start');
type Timed = Response & { [STARTED]: number };

/**
 * One line per request once its response is done: request id, method, path without the query (through the
 * logger's `req`/`res` serializers), status and `responseTime` in ms. Client errors are warnings, server errors
 * errors; a response the client hung up on is "request aborted". The line holds only those picked fields, so it
 * skips the redaction pass every other line gets (the child logger below has none).
 */
export const accessLog = (logger: Logger): RequestHandler => {
  const log = logger.child({}, { redact: [] });
  // One listener for every response, reading the start from the response: no closure and no `once` wrapper per
  // request. A response emits 'close' once, so `on` is `once` here.
  function logOnClose(this: Timed) {
    const level = this.statusCode >= 500 ? 'error' : this.statusCode >= 400 ? 'warn' : 'info';
    if (!log.isLevelEnabled(level)) return;
    const responseTime = Math.round(performance.now() - this[STARTED]);
    log[level]({ req: this.req, res: this, responseTime }, this.writableFinished ? 'request completed' : 'request aborted');
  }
  return (_req, res, next) => {
    // A duration, not a point in time: monotonic and process-local, so not the injected clock.
    (res as Timed)[STARTED] = performance.now();
    res.on('close', logOnClose);
    next();
  };
};
