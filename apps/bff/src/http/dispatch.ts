import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { AppContext } from '../context.ts';
import { ApiError } from '../core/api-error.ts';
import { apiRequestOf, type HttpRequest } from './api-request.ts';
import { undecodableParamError } from './malformed-path.ts';
import type { ContractRoute, OperationMatch, OperationTable } from './operation-table.ts';
import { resolvePrincipal } from './principal.ts';
import { countRequest } from './rate-limit.ts';

/**
 * How a request says who is calling. A partner's (and the widget's) is the bearer token or the widget session cookie;
 * the console's is its session cookie (modules/console), with `permit` refusing, once the request is counted, what
 * the staff member's role or the CSRF check does not allow.
 */
export interface Admission {
  resolve(ctx: AppContext, req: HttpRequest): Promise<void>;
  permit?(req: HttpRequest, op: ContractRoute['op']): Promise<void>;
}

const BEARER_ADMISSION: Admission = { resolve: resolvePrincipal };

/**
 * Who is calling, counted in the bucket of the operation the request names (or the pages' bucket): every request
 * but the static files passes here once, whichever way it is served.
 */
const admit = async (
  ctx: AppContext,
  req: HttpRequest,
  res: ServerResponse,
  op?: ContractRoute['op'],
  admission: Admission = BEARER_ADMISSION,
): Promise<void> => {
  let unresolved: unknown;
  try {
    await admission.resolve(ctx, req);
  } catch (error) {
    // The database could not say who is calling: still counted (by address), then answered as the failure it is.
    unresolved = error;
  }
  await countRequest(ctx, req, res, op);
  if (unresolved) throw unresolved;
};

/** A request that names no operation, admitted and counted in the pages' bucket. */
export const admitRequest = (ctx: AppContext, req: HttpRequest, res: ServerResponse): Promise<void> => admit(ctx, req, res);

export type OperationRoute = Extract<OperationMatch, { route: ContractRoute }>;

/** A contract operation the table matched: admitted (by `admission`: a partner's, unless said), then served by its route. */
export const serveOperation = async (
  ctx: AppContext,
  req: HttpRequest,
  res: ServerResponse,
  match: OperationRoute,
  admission: Admission = BEARER_ADMISSION,
): Promise<void> => {
  await admit(ctx, req, res, match.route.op, admission);
  // A path that cannot be decoded cannot be routed: answered before authentication, like an unknown route.
  if ('undecodable' in match) throw undecodableParamError(match.undecodable);
  req.params = match.params;
  await admission.permit?.(req, match.route.op);
  await match.route.serve(req, res);
};

/**
 * What Express serves of the API: a request that names no operation (app.ts sent every one that does to its route)
 * is admitted and answered `204` (OPTIONS) or `405` with `Allow` when it names a resource by a method it does not
 * take, else passed on to the pages outside the contract and past them to the 404.
 */
export const admitPages =
  (ctx: AppContext, operations: OperationTable): RequestHandler =>
  async (_req, res, next) => {
    const req = apiRequestOf(res);
    const match = operations.match(req.method, req.path);
    // app.ts reads every target before Express does, and serves every operation it names itself.
    if (match && 'route' in match) throw new Error(`${req.method} ${req.path} reached Express: app.ts serves operations`);
    await admit(ctx, req, res);
    if (!match) return next();
    res.setHeader('Allow', match.allowed.join(', '));
    if (req.method !== 'OPTIONS') {
      throw new ApiError('METHOD_NOT_ALLOWED', `${req.path} does not take ${req.method}; it takes ${match.allowed.join(', ')}.`);
    }
    res.statusCode = 204;
    res.end();
  };
