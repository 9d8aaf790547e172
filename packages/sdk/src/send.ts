import type { Operation } from '@credit/contract';
import type { CreditAuth } from './auth.ts';
import { CreditApiError, CreditConnectionError } from './errors.ts';
import { newIdempotencyKey } from './idempotency-key.ts';
import { errorFromResponse, readSuccess, responseRequestId } from './response.ts';
import { type AttemptOutcome, parseRetryAfter, type RetryPolicy, retryDelay } from './retry.ts';
import { fillPath, joinUrl, queryString } from './url.ts';

/** What one client gives every request it sends. */
export interface SendContext {
  baseUrl: string;
  fetch: typeof fetch;
  auth: CreditAuth | undefined;
  validateResponses: boolean;
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

const encodeBody = (operation: Operation, body: unknown): { contentType?: string; payload?: string } => {
  if (body === undefined) return {};
  if (operation.request.bodyType === 'application/x-www-form-urlencoded') {
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
export const send = async (context: SendContext, operation: Operation, args: SendArgs = {}): Promise<ApiResponse<unknown>> => {
  const url = joinUrl(context.baseUrl, fillPath(operation.path, args.params) + queryString(args.query));
  const idempotencyKey = operation.idempotent ? (args.idempotencyKey ?? newIdempotencyKey()) : args.idempotencyKey;
  // A lost response to a read, a token request or a keyed request can be asked for again without doing twice.
  const safeToRetry = operation.method === 'get' || operation.auth.kind === 'client-credentials' || operation.idempotent === true;
  const { contentType, payload } = encodeBody(operation, args.body);
  const bearer = operation.auth.kind === 'bearer';
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
        method: operation.method.toUpperCase(),
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
        throw new CreditConnectionError(
          `${operation.operationId}: the API could not be reached (${reason})`,
          operation.operationId,
          {
            cause: error,
          },
        );
      }
      await context.sleep(delay, args.signal);
      retry += 1;
      continue;
    }

    if (response.ok) {
      const body = await readSuccess(response, operation, context.validateResponses);
      return { status: response.status, headers: response.headers, requestId: responseRequestId(response, body), body };
    }
    if (response.status === 401 && bearer && context.auth && !renewed) {
      const error = await errorFromResponse(response, operation);
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
    if (delay === undefined) throw await errorFromResponse(response, operation);
    await response.body?.cancel();
    await context.sleep(delay, args.signal);
    retry += 1;
  }
};
