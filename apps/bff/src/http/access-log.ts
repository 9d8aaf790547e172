import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { HttpRequest } from './api-request.ts';

/**
 * One line per request once its response is done: request id, method, path without the query (through the
 * logger's `req`/`res` serializers), status and `responseTime` in ms. Client errors are warnings, server errors
 * errors; a response the client hung up on is "request aborted". The line holds only those picked fields, so it
 * skips the redaction pass every other line gets (the child logger below has none).
 */
export const accessLog = (logger: Logger) => {
  const log = logger.child({}, { redact: [] });
  return (req: HttpRequest, res: ServerResponse): void => {
    // A duration, not a point in time: monotonic and process-local, so not the injected clock.
    const started = performance.now();
    res.once('close', () => {
      const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const responseTime = Math.round(performance.now() - started);
      log[level]({ req, res, responseTime }, res.writableFinished ? 'request completed' : 'request aborted');
    });
  };
};
