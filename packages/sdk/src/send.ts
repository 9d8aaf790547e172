import type { CreditAuth } from './auth.ts';
import { CreditApiError, CreditConnectionError } from './errors.ts';
import { newIdempotencyKey } from './idempotency-key.ts';
import {
  type CredentialsErrorParser,
  errorFromResponse,
  type ResponseValidator,
  readSuccess,
  responseRequestId,
} from './response.ts';
import { type AttemptOutcome, parseRetryAfter, type RetryPolicy, retryDelay } from './retry.ts';
import type { Route } from './route.ts';
import { fillPath, joinUrl, queryString } from './url.ts';

/** What one client gives every request it sends. */
export interface SendContext {
  baseUrl: string;
  fetch: typeof fetch;
  auth: CreditAuth | undefined;
  /** Checks success bodies against the contract (the server entry's zod schemas); none in the browser entry. */
  validate: ResponseValidator | undefined;
  /** Reads the token endpoint's OAuth errors (the server entry only). */
  credentialsError: CredentialsErrorParser | undefined;
  retry: RetryPolicy;
  headers: Record<string, string>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random: () => number;
}

export interface SendArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<Body> {
  status: number;
  headers: Headers;
  requestId: string | undefined;
  body: Body;
}

const encodeBody = (route: Route, body: unknown): { contentType?: string; payload?: string } => {
  if (body === undefined) return {};
  if (route.form) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
      if (value !== undefined) form.append(key, String(value));
    }
    return { contentType: 'application/x-www-form-urlencoded', payload: form.toString() };
  }
  return { contentType: 'application/json', payload: JSON.stringify(body) };
};

/**
 * One logical call: the request, and the retries it is allowed (429/503 honouring `Retry-After`, network
 * errors where safe, one credential renewal after a 401). The `Idempotency-Key` is chosen once, before the
 * first attempt, so every retry of an idempotent operation is the same request to the server.
 */
export const send = async (
  context: SendContext,
  operationId: string,
  route: Route,
  args: SendArgs = {},
): Promise<ApiResponse<unknown>> => {
  const url = joinUrl(context.baseUrl, fillPath(route.path, args.params) + queryString(args.query));
  const idempotencyKey = route.idempotent ? (args.idempotencyKey ?? newIdempotencyKey()) : args.idempotencyKey;
  const bearer = !route.credentials;
  // A lost response to a read, a token request or a keyed request can be asked for again without doing twice.
  const safeToRetry = route.method === 'GET' || !bearer || route.idempotent === true;
  const { contentType, payload } = encodeBody(route, args.body);
  let renewed = false;

  for (let retry = 0; ; ) {
    const authHeaders = bearer && context.auth ? await context.auth.headers(args.signal) : {};
    const headers: Record<string, string> = { accept: 'application/json', ...context.headers, ...args.headers, ...authHeaders };
    if (contentType) headers['content-type'] = contentType;
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;

    let outcome: AttemptOutcome;
    let response: Response | undefined;
    try {
      response = await context.fetch(url, {
        method: route.method,
        headers,
        body: payload,
        signal: args.signal,
      });
    } catch (error) {
      if (args.signal?.aborted) throw error;
      outcome = { kind: 'network-error', safeToRetry };
      const delay = retryDelay(outcome, retry, context.retry, context.random);
      if (delay === undefined) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new CreditConnectionError(`${operationId}: the API could not be reached (${reason})`, operationId, {
          cause: error,
        });
      }
      await context.sleep(delay, args.signal);
      retry += 1;
      continue;
    }

    if (response.ok) {
      const body = await readSuccess(response, operationId, route, context.validate);
      return { status: response.status, headers: response.headers, requestId: responseRequestId(response, body), body };
    }
    if (response.status === 401 && bearer && context.auth && !renewed) {
      const error = await errorFromResponse(response, operationId, route, context.credentialsError);
      if (!(error instanceof CreditApiError && error.code === 'AUTHENTICATION_ERROR')) throw error;
      if (!(await context.auth.renew(authHeaders))) throw error;
      renewed = true;
      continue;
    }
    outcome = {
      kind: 'response',
      status: response.status,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), context.now()),
    };
    const delay = retryDelay(outcome, retry, context.retry, context.random);
    if (delay === undefined) throw await errorFromResponse(response, operationId, route, context.credentialsError);
    await response.body?.cancel();
    await context.sleep(delay, args.signal);
    retry += 1;
  }
};
