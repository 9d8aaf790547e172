import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, Request, RequestHandler, Response } from 'express';
import { STARTED } from './access-log.ts';
import type { OperationMatch, OperationTable } from './operation-table.ts';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** What the front door found, handed to the dispatcher so it does not match the path a second time. */
export const FRONT_DOOR_MATCH = Symbol('operation matched at the front door');
type Matched = Request & { [FRONT_DOOR_MATCH]?: OperationMatch };

export const frontDoorMatch = (req: Request): OperationMatch | undefined => (req as Matched)[FRONT_DOOR_MATCH];

/**
 * The characters for which Express (parseurl) takes the slow `url.parse` path, which may read the path differently
 * than a plain split at `?` (a `#`, whitespace): such a request goes through Express, which decides as it always did.
 */
const UNUSUAL_PATH = /[\t\n\f\r #\u00a0\ufeff]/;

/** The path part of a request target as Express reads it, or undefined when only Express should read it. */
const plainPath = (url: string): string | undefined => {
  if (url.charCodeAt(0) !== 47) return undefined; // absolute-form or `*`: Express's business
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return UNUSUAL_PATH.test(path) ? undefined : path;
};

/**
 * Runs connect-style handlers in order, as Express's router would for a path every one of them accepts: a handler's
 * thrown error or rejected promise, or `next(error)`, ends the chain in `done(error)`; the last `next()` calls
 * `done()`.
 */
const runChain = (chain: readonly RequestHandler[], req: Request, res: Response, done: (error?: unknown) => void) => {
  let index = 0;
  // As Express's router: a promise rejected with nothing is still an error.
  const rejected = (error: unknown) => done(error ?? new Error('Rejected promise'));
  const next = (error?: unknown): void => {
    // As Express's router: only a truthy value passed to next() is an error.
    if (error) {
      done(error);
      return;
    }
    const handler = chain[index++];
    if (!handler) {
      done();
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.catch(rejected);
    } catch (thrown) {
      done(thrown);
    }
  };
  next();
};

/**
 * Every field the API sets on an operation's request and response, created here, before their prototypes change:
 * what Express's app.handle and router set (`res`, `req`, `locals`, `originalUrl`, `baseUrl`), and what the API's
 * handlers set later (request id, principal, body, params, the access log's start…), undefined until they do.
 *
 * Why: V8 gives an object whose prototype was changed (`Object.setPrototypeOf`) a map (hidden class) of its own for
 * every property added to it afterwards. Added later, each of these fields made every request's `req` and `res` a
 * shape never seen before, so every property access on them, ours and Express's, missed its inline cache and went
 * to the runtime (`--log-ic` showed the stores to `requestId`, `principal`, `statusCode`… megamorphic and missing on
 * every request). Created before the prototype changes, they are stores to existing fields of one shared shape.
 * A field added later by new code only costs speed, never correctness: add it here.
 */
const declareRequestFields = (req: Request, res: Response, url: string, match: OperationMatch): void => {
  req.res = res;
  res.req = req;
  res.locals = Object.create(null);
  // Node keeps these on the prototypes until first set: `statusCode` by every answer, `statusMessage` by writeHead,
  // `_eventsCount` by the first listener added to the request (EventEmitter), `_parsedUrl` by Express's `req.query`.
  res.statusCode = 200;
  res.statusMessage = undefined as unknown as string;
  const events = req as unknown as { _eventsCount: number; _parsedUrl: unknown };
  // An own copy of the value the prototype holds (what the first listener would have made).
  const listenerCount = events._eventsCount;
  events._eventsCount = listenerCount;
  events._parsedUrl = undefined;
  (res as Response & { [STARTED]?: number })[STARTED] = 0;
  req.originalUrl = url;
  req.baseUrl = '';
  (req as Matched)[FRONT_DOOR_MATCH] = match;
  req.requestId = undefined as unknown as string; // set by the first handler (request-id.ts)
  req.correlationId = undefined;
  req.principal = undefined;
  req.authFailure = undefined;
  req.presentedToken = undefined;
  req.bodyError = undefined;
  // body-parser sets `body` itself only when the request has none; `params` is the dispatcher's.
  req.body = undefined;
  req.params = {};
};

export interface FrontDoorParts {
  /** Express: static files, docs, the widget frame, health, OPTIONS, unknown routes: whatever is not an operation. */
  app: Express;
  operations: OperationTable;
  /** The handlers a contract operation passes through, the dispatcher last: the same functions, in the same order, as
   * the Express app runs for it (`createApp` builds both from one list). */
  chain: readonly RequestHandler[];
  /** The Express app's error handler, for what the chain throws. */
  onError: (error: unknown, req: Request, res: Response) => void;
  /** What the chain ends in when nothing answered (the dispatcher always answers a matched operation). */
  onUnanswered: (req: Request, res: Response) => void;
}

/**
 * The server's request listener. A request that names a contract operation goes to the operation table's dispatcher
 * directly, through the handlers every API request passes (request id, access log, security headers, no-store,
 * bodies, clock scope); everything else goes to Express. Express's router walked ~10 layers and built a final
 * handler per request (~7 % of a read's CPU); here an operation costs one table lookup. The request and response
 * get what Express gives every request first (its prototypes, so `req.ip`, `req.get`, `req.query` read the app's
 * settings; `req.originalUrl`, `req.baseUrl`), so handlers cannot tell which door a request came through.
 */
export const frontDoor = ({ app, operations, chain, onError, onUnanswered }: FrontDoorParts): RequestListener => {
  const done = (req: Request, res: Response) => (error?: unknown) => {
    try {
      if (error === undefined) onUnanswered(req, res);
      else onError(error, req, res);
    } catch {
      // The error answer itself failed: what Express's final handler does, with nothing more to go wrong.
      if (res.headersSent) req.socket.destroy();
      else {
        res.statusCode = 500;
        res.end();
      }
    }
  };
  return (incoming, outgoing) => {
    const url = incoming.url ?? '';
    const path = incoming.method === 'OPTIONS' ? undefined : plainPath(url);
    const match = path === undefined ? undefined : operations.match(incoming.method ?? '', path);
    if (!match) {
      app(incoming, outgoing);
      return;
    }
    const req = incoming as Request;
    const res = outgoing as Response;
    declareRequestFields(req, res, url, match);
    // Last, after every field exists (see declareRequestFields): what Express's app.handle does to every request.
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    runChain(chain, req, res, done(req, res));
  };
};
