import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { HttpRequest } from './api-request.ts';

const loggers = new WeakMap<HttpRequest, Logger>();

/**
 * The logger for lines about one request (errors, warnings): every line names the request (id, method and path,
 * through the logger's serializers). Made on first use, so a request that logs nothing pays nothing.
 */
export const requestLogger = (ctx: AppContext, req: HttpRequest): Logger => {
  let logger = loggers.get(req);
  if (!logger) {
    logger = ctx.logger.child({ req });
    loggers.set(req, logger);
  }
  return logger;
};
