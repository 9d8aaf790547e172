import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import { undecodableParamError } from './malformed-path.ts';
import type { OperationTable } from './operation-table.ts';
import { resolvePrincipal } from './principal.ts';
import { countRequest } from './rate-limit.ts';

/**
 * Every request but the static files comes through here, once: who is calling, counted in its bucket, then served if
 * it names a contract operation (the table's rules), answered `204` (OPTIONS) or `405` with `Allow` if it names a
 * resource by a method it does not take, or passed on to the pages outside the contract and past them to the 404.
 */
export const dispatchOperations =
  (ctx: AppContext, operations: OperationTable): RequestHandler =>
  async (req, res, next) => {
    const match = operations.match(req.method, req.path);
    let unresolved: unknown;
    try {
      await resolvePrincipal(ctx, req);
    } catch (error) {
      // The database could not say who is calling: still counted (by address), then answered as the failure it is.
      unresolved = error;
    }
    await countRequest(ctx, req, res, match && 'route' in match ? match.route.op : undefined);
    if (unresolved) throw unresolved;
    if (!match) return next();
    if ('allowed' in match) {
      res.setHeader('Allow', match.allowed.join(', '));
      if (req.method !== 'OPTIONS') {
        throw new ApiError(
          'METHOD_NOT_ALLOWED',
          `${req.path} does not take ${req.method}; it takes ${match.allowed.join(', ')}.`,
        );
      }
      res.statusCode = 204;
      res.end();
      return;
    }
    // A path that cannot be decoded cannot be routed: answered before authentication, like an unknown route.
    if ('undecodable' in match) throw undecodableParamError(match.undecodable);
    req.params = match.params;
    await match.route.serve(req, res);
  };
