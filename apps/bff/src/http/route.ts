import type { ServerResponse } from 'node:http';
import {
  documentedErrors,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  type Operation,
  stringPolicyProblem,
  type TPagination,
} from '@credit/contract';
import type { Router } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { ApiError, type ErrorDetail, validationError } from '../core/api-error.ts';
import { type Caller, hasScope, type Principal } from '../core/principal.ts';
import { type RequestScope, requestScope } from '../core/request-scope.ts';
import { sharedJsonBytesOf } from '../core/shared-answer.ts';
import { assertIpAllowed } from '../security/ip-allowlist.ts';
import type { HttpRequest } from './api-request.ts';
import { noParameterProblems, sendsNoBody } from './body-shape.ts';
import { responseMeta } from './envelope.ts';
import { errorAnswer, type PreparedResponse } from './error-response.ts';
import { fingerprintRequest, refuseUsedKey, withIdempotency } from './idempotency.ts';
import { parseInput, parsePart } from './input-parse.ts';
import { malformedQueryDetails } from './malformed-query.ts';
import type { ContractRoute } from './operation-table.ts';

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface RouteContext<O extends Operation> {
  req: HttpRequest;
  params: Infer<O['request']['params']>;
  query: Infer<O['request']['query']>;
  body: Infer<O['request']['body']>;
  caller: Caller;
  /** Who is calling and the request's time: `scope.now`, and the user's test clock when the path names a user on one. */
  scope: RequestScope;
  /** The app's context on the request's clock (`scope.ctx`): what the handler hands to services. */
  ctx: AppContext;
}

type SuccessOf<O extends Operation> = O['success'];
type DataOf<S> = S extends { data: infer D extends z.ZodType } ? z.input<D> : never;
type ExtraMetaOf<S> = S extends { meta: infer M extends z.ZodType } ? z.input<M> : Record<string, unknown>;

/**
 * What a handler of `O` answers, typed by the operation's success schema: a list's items and pagination, one
 * resource's data (with the operation's extra `meta`), or nothing for a 204. A handler cannot answer a shape the
 * contract does not describe; the envelope (`meta.requestId`, `timestamp`) is added by `bindRoute`.
 */
export type HandlerResult<O extends Operation = Operation> = Operation extends O
  ? AnyHandlerResult
  : SuccessOf<O> extends { status: 204 }
    ? { noContent: true }
    : SuccessOf<O> extends { list: true }
      ? { data: DataOf<SuccessOf<O>>[]; pagination: TPagination }
      : { data: DataOf<SuccessOf<O>>; meta?: ExtraMetaOf<SuccessOf<O>>; headers?: Record<string, string> };

type AnyHandlerResult =
  | { data: unknown; meta?: Record<string, unknown>; headers?: Record<string, string> }
  | { data: unknown[]; pagination: TPagination }
  | { noContent: true };

export interface RouteOptions {
  /** Picks the body schema per caller when one route takes two shapes (self-enrolment). */
  bodySchema?: (principal: Principal) => z.ZodType;
  /**
   * Rules a schema cannot state because they read the clock (an age), checked on the raw body beside the schema, so
   * they are reported with every other broken field. Each must accept any input and judge only fields it can read.
   */
  bodyRules?: (body: unknown, now: Date) => ErrorDetail[];
}

/** Runs one part's parse; a validation failure adds its details to `problems` instead of ending the request. */
const collectProblems = (problems: ErrorDetail[], parse: () => unknown): unknown => {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'VALIDATION_ERROR' || !error.details) throw error;
    problems.push(...error.details);
    return undefined;
  }
};

/** What `req.query` is for a URL without `?`; never handed out (parseInput answers a copy). */
const EMPTY_QUERY: Record<string, unknown> = Object.freeze({});

/** Who may call: authentication (401), then scope and user-token rules (403). */
const authorize = (op: Operation, req: HttpRequest, ctx: AppContext): Principal => {
  if (op.auth.kind !== 'bearer') throw new Error(`${op.operationId} is not a bearer route`);
  const principal = req.principal;
  if (!principal) {
    // A failure reason is recorded only when a token (or widget session) was presented: the answer then says so.
    throw new ApiError(
      'AUTHENTICATION_ERROR',
      req.authFailure ?? 'Send an access token: Authorization: Bearer <token>.',
      undefined,
      undefined,
      { credentialsRefused: Boolean(req.authFailure) },
    );
  }
  // The allowlist names the partner's servers; user tokens are used from customers' browsers and phones, and the
  // console from the bank's staff's browsers, each signed in by a link the bank's server asked for.
  if (ctx.config.APP_ENV === 'production' && principal.kind === 'access' && !principal.staff) {
    assertIpAllowed(principal.client.ipAllowlist, req.ip);
  }
  if (principal.kind === 'user') {
    if (!op.auth.userToken) throw new ApiError('AUTHORIZATION_ERROR', USER_TOKEN_ON_PARTNER_ROUTE);
  } else if (op.auth.userTokenOnly) {
    throw new ApiError('AUTHORIZATION_ERROR', 'This route is for user tokens only.');
  }
  if (!hasScope(principal.scopes, op.auth.scope)) {
    const minted = principal.kind === 'user' ? ' (a user token has the scopes of the access token that minted it)' : '';
    throw new ApiError('AUTHORIZATION_ERROR', `This token lacks the "${op.auth.scope}" scope${minted}.`);
  }
  return principal;
};

/** What a customer's token may call, and which token the route wants instead (contract: createUserToken). */
const USER_TOKEN_ON_PARTNER_ROUTE =
  'A user token cannot call this route: it needs your bank’s client token, an access token from POST /oauth/token ' +
  '(grant_type=client_credentials) on your server. User tokens only call GET /v1/me, POST /v1/users/enroll and ' +
  'the /v1/users/{userId}/… routes of their own user.';

const prepareSuccess = (op: Operation, result: AnyHandlerResult, scope: RequestScope): PreparedResponse => {
  if ('noContent' in result) return { status: 204 };
  const meta = responseMeta(scope.requestId, scope.clock, 'meta' in result ? result.meta : undefined);
  if ('pagination' in result)
    return { status: op.success.status, body: { data: result.data, pagination: result.pagination, meta } };
  return {
    status: op.success.status,
    body: { data: result.data, meta },
    headers: 'headers' in result ? result.headers : undefined,
  };
};

const DATA_OPENING = Buffer.from('{"data":');

/**
 * The answer's JSON. An envelope whose `data` a service marked shared (core/shared-answer.ts) reuses that data's
 * UTF-8 bytes, copied rather than encoded again; the rest of the envelope (pagination, meta) is serialised per answer.
 * Envelopes put `data` first (prepareSuccess), so the bytes are JSON.stringify's.
 */
export const answerBytes = (body: unknown): Buffer | string => {
  const data = (body as { data?: unknown }).data;
  const bytes = typeof data === 'object' && data !== null ? sharedJsonBytesOf(data) : undefined;
  if (bytes === undefined) return JSON.stringify(body);
  const { data: _shared, ...rest } = body as Record<string, unknown>;
  const restJson = JSON.stringify(rest);
  return Buffer.concat([DATA_OPENING, bytes, Buffer.from(restJson === '{}' ? '}' : `,${restJson.slice(1)}`)]);
};

/**
 * Writes a prepared answer. JSON is serialised and sent directly rather than through `res.json`: API answers never
 * carry an ETag and are never fresh, so Express's send path (ETag, freshness, charset handling) has nothing to do.
 */
export const send = (res: ServerResponse, response: PreparedResponse) => {
  if (response.headers) for (const name in response.headers) res.setHeader(name, response.headers[name] as string);
  res.statusCode = response.status;
  if (response.body === undefined) {
    res.end();
    return;
  }
  const body = answerBytes(response.body);
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (res.req.method === 'HEAD') res.end();
  else res.end(body);
};

/** `Idempotency-Key`: 1–255 characters under the contract's string policy, or 400 naming the header. */
const readIdempotencyKey = (req: HttpRequest): string | undefined => {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  const problem =
    key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH
      ? `must be 1–${IDEMPOTENCY_KEY_MAX_LENGTH} characters`
      : stringPolicyProblem(key);
  if (problem) throw validationError([{ field: 'Idempotency-Key', message: problem }]);
  return key;
};

/**
 * Keys are per client; a user token's keys are also per user, so two customers never share a replay. The user id's
 * length comes first, so no pair of id and key reads as another pair (`x` + `y:K` is not `x:y` + `K`); a server's
 * keys are prefixed apart, so none reads as a customer's.
 */
const scopeIdempotencyKey = (caller: Caller, key: string | undefined): string | undefined => {
  if (!key) return undefined;
  const own = caller.ownExternalUserId;
  return own ? `user:${own.length}:${own}:${key}` : `client:${key}`;
};

/**
 * Before a request's 400: each resource its path names, in path order, checked by the module that owns that path
 * parameter (`ctx.pathResources`). One the caller may not see answers its `404` (as the handler would have); anything
 * else those checks say is left to the handler, which only runs on a valid request.
 */
const assertPathResourcesVisible = async (ctx: AppContext, caller: Caller, params: Record<string, unknown>) => {
  const checks = ctx.pathResources;
  if (!checks) return;
  for (const [name, value] of Object.entries(params)) {
    const check = checks[name];
    if (!check || typeof value !== 'string') continue;
    try {
      await check(caller, value, params);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'NOT_FOUND') throw error;
    }
  }
};

/**
 * The request's scope, built once before its handler runs: a route whose path names a user on a sandbox test clock
 * reads that clock's time (`ctx.userClocks`), and refuses writes while the clock advances, since they would race the
 * periods the worker is running for the user. Every other route reads real time.
 */
const scopeOf = async (
  ctx: AppContext,
  op: Operation,
  caller: Caller,
  requestId: string,
  params: unknown,
): Promise<RequestScope> => {
  const userId = (params as { userId?: unknown } | undefined)?.userId;
  const userClock = typeof userId === 'string' && ctx.userClocks ? await ctx.userClocks(caller, userId) : undefined;
  if (userClock?.advancing && op.method !== 'get') {
    throw new ApiError(
      'CLOCK_ADVANCING',
      'This user’s test clock is advancing; writes about the user are refused until the clock is ready again.',
    );
  }
  return requestScope(ctx, caller, requestId, userClock);
};

/**
 * What a module's route builder returns: the contract operations it binds (`bindRoute`, `bindRawRoute`), in order,
 * for the one operation table `createApp` builds, and, only for a module that serves pages outside the contract
 * (docs, the widget frame, the sandbox's landing page), the Express router that serves them.
 */
export interface ModuleRoutes {
  operations: readonly ContractRoute[];
  pages?: Router;
}

/**
 * The route of an operation whose answer is not the API envelope (the OAuth token endpoint, RFC 6749 bodies):
 * dispatched and rate limited from the table like every other operation; the handler writes its own answer, and
 * anything it throws goes to the app's error handler. Returned, not registered anywhere.
 */
export const bindRawRoute = (op: ContractRoute['op'], serve: ContractRoute['serve']): ContractRoute => ({ op, serve });

/**
 * Binds one contract operation to its handler: sandbox gate → auth → body errors → validation → idempotency →
 * handler → envelope. Every API route goes through here, so each rule is written once. Returns the route and
 * registers nothing: the module's route builder hands it to `createApp`, whose operation table dispatches it, after
 * the request was counted in the operation's rate-limit bucket.
 */
export const bindRoute = <O extends Operation>(
  ctx: AppContext,
  op: O,
  handler: (route: RouteContext<O>) => Promise<HandlerResult<O>>,
  options: RouteOptions = {},
): ContractRoute => {
  const documented = new Set<string>(documentedErrors(op));
  // The handler's answer, an error included, is prepared rather than sent: a keyed request stores it for replay.
  // Made once per route: a function made per request would also be named per request (tsx's keepNames).
  const run = async (route: Omit<RouteContext<O>, 'scope' | 'ctx'>): Promise<PreparedResponse> => {
    let scope: RequestScope | undefined;
    try {
      scope = await scopeOf(ctx, op, route.caller, route.req.requestId, route.params);
      return prepareSuccess(op, (await handler({ ...route, scope, ctx: scope.ctx })) as AnyHandlerResult, scope);
    } catch (error) {
      // An error about a user on a test clock is dated at that clock's time too.
      return errorAnswer(scope?.ctx ?? ctx, route.req, error, { operationId: op.operationId, documented });
    }
  };
  const serve = async (req: HttpRequest, res: ServerResponse) => {
    if (op.sandboxOnly && ctx.config.APP_ENV === 'production') throw new ApiError('NOT_FOUND', 'No such route.');
    const principal = authorize(op, req, ctx);
    if (op.deprecated) {
      res.setHeader('Deprecation', `@${Math.floor(new Date(op.deprecated.since).getTime() / 1000)}`);
      res.setHeader('Sunset', new Date(op.deprecated.sunset).toUTCString());
      if (op.deprecated.link) res.setHeader('Link', `<${op.deprecated.link}>; rel="deprecation"`);
    }
    if (req.bodyError) throw req.bodyError;
    // No body, no byte, `{}` and an empty form all send nothing: each is the operation's empty input (http/body-shape.ts).
    const noBody = sendsNoBody(req);
    if (op.request.body && !noBody && !req.is('application/json')) {
      throw validationError([{ field: 'body', message: 'Content-Type must be application/json' }]);
    }
    // Without a query string `req.query` (parsed again on every read in Express 5) can only be empty.
    const hasQuery = req.originalUrl.includes('?');
    const badQuery = hasQuery ? malformedQueryDetails(req.originalUrl) : [];
    if (badQuery.length) throw validationError(badQuery);
    // Every broken field of path, query and body is reported in one answer, so a form needs one round trip.
    const problems: ErrorDetail[] = [];
    const params = collectProblems(problems, () => parseInput(op.request.params, req.params, 'path'));
    const query = collectProblems(problems, () => parseInput(op.request.query, hasQuery ? req.query : EMPTY_QUERY, 'query'));
    const bodySchema = options.bodySchema?.(principal) ?? op.request.body;
    const sentBody = noBody ? undefined : req.body;
    // An operation that takes no body names each field it was sent, so a key's replay never hides a different body.
    if (!bodySchema && !noBody) problems.push(...noParameterProblems(sentBody));
    const body = bodySchema ? collectProblems(problems, () => parsePart(bodySchema, sentBody, 'body')) : undefined;
    if (options.bodyRules) {
      const reported = new Set(problems.map((problem) => problem.field));
      for (const problem of options.bodyRules(sentBody, ctx.clock.now())) {
        if (!reported.has(problem.field)) problems.push(problem);
      }
    }
    const caller: Caller = {
      clientId: principal.client.id,
      ownExternalUserId: principal.kind === 'user' ? principal.externalUserId : undefined,
      principal,
    };
    const key = op.idempotent ? collectProblems(problems, () => readIdempotencyKey(req)) : undefined;
    const scopedKey = scopeIdempotencyKey(caller, key as string | undefined);
    if (problems.length) {
      // What the caller may not see is 404 whatever else is wrong, and a key already used answers as used.
      if (params) await assertPathResourcesVisible(ctx, caller, params as Record<string, unknown>);
      if (scopedKey) await refuseUsedKey(ctx, caller.clientId, scopedKey);
      throw validationError(problems);
    }
    const route: Omit<RouteContext<O>, 'scope' | 'ctx'> = {
      req,
      params: params as Infer<O['request']['params']>,
      query: query as Infer<O['request']['query']>,
      body: body as Infer<O['request']['body']>,
      caller,
    };
    // The handler's context names the request it serves (RequestScope.ctx.onBehalfOf), which every audit entry of its
    // work records; a successful read of credit or personal data is recorded, durably, before it is answered.
    // Only a body the operation reads is part of the request: one it ignores is never walked (nor bounded, as no
    // schema parsed it), so 20,000 bytes of `[[[[…` cannot overflow the fingerprint's walk.
    const fingerprint = scopedKey ? fingerprintRequest(op.method, req.path, bodySchema ? sentBody : undefined) : '';
    const response = scopedKey
      ? await withIdempotency(ctx, caller.clientId, scopedKey, fingerprint, () => run(route))
      : await run(route);
    if (ctx.audit && response.status < 300) await ctx.audit.recordOperation(op.operationId, caller, req.requestId, params);
    send(res, response);
  };
  return { op, serve };
};
