import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { frontDoorMatch } from './front-door.ts';
import { undecodableParamError } from './malformed-path.ts';
import type { OperationTable } from './operation-table.ts';
import { resolvePrincipal } from './principal.ts';
import { countRequest } from './rate-limit.ts';

/**
 * Every request but the static files comes through here, once (from the front door for a contract operation, else
 * from Express): who is calling, counted in its bucket, then served
 * if it names a contract operation (the table's rules: exact case, no trailing slash, HEAD as GET), or passed on to
 * the pages outside the contract (docs, health, the widget frame), and past them to the 404.
 */
export const dispatchOperations =
  (ctx: AppContext, operations: OperationTable): RequestHandler =>
  async (req, res, next) => {
    // Matched already when the request came through the front door (front-door.ts), else here, by the same table.
    const match = frontDoorMatch(req) ?? operations.match(req.method, req.path);
    let unresolved: unknown;
    try {
      await resolvePrincipal(ctx, req);
    } catch (error) {
      // The database could not say who is calling: still counted (by address), then answered as the failure it is.
      unresolved = error;
    }
    await countRequest(ctx, req, res, match?.route.op);
    if (unresolved) throw unresolved;
    if (!match) {
      const allowed = req.method === 'OPTIONS' ? operations.allowedMethods(req.path) : [];
      if (allowed.length === 0) return next();
      res.setHeader('Allow', allowed.join(', '));
      res.statusCode = 204;
      res.end();
      return;
    }
    // A path that cannot be decoded cannot be routed: answered before authentication, like an unknown route.
    if ('undecodable' in match) throw undecodableParamError(match.undecodable);
    req.params = match.params;
    await match.route.serve(req, res);
  };
