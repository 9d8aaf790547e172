import type { CreditAuth } from './auth.ts';
import type { AnyOperationId, CallArgsTuple, CallResult, ListItem, ListOperationId, Page, ResponseBody } from './operations.ts';
import { AutoPaginator } from './pagination.ts';
import type { CredentialsErrorParser, ResponseValidator } from './response.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, sleep } from './retry.ts';
import { parseRoute, type Route } from './route.ts';
import { type ApiResponse, type SendArgs, type SendContext, send } from './send.ts';

/** What every client takes, in Node and in browsers. */
export interface CommonOptions {
  /** `https://api.example.com`, or '' for same-origin calls from a page the API serves. */
  baseUrl: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch | undefined;
  /** Retries after the first attempt (429, 503, safe network errors). Default 2. */
  maxRetries?: number | undefined;
  /** Backoff and `Retry-After` limits; see `DEFAULT_RETRY_POLICY`. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>> | undefined;
  /** Headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Milliseconds since the epoch: reads `Retry-After` dates (and decides when an access token is renewed). Default `Date.now`. */
  now?: (() => number) | undefined;
  /** How retries wait; tests pass one that records the delay and returns at once. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
}

/** A browser, app or test holding its own credentials (a user token, a widget session). */
export interface CustomAuthOptions extends CommonOptions {
  auth: CreditAuth;
  clientId?: never;
  clientSecret?: never;
}

/**
 * The Credit API client without zod: the operations of `routes` (lines of src/routes.generated.ts) callable
 * by `operationId`, typed from the contract. The browser entry's `CreditClient` knows the operations a user
 * token may call; the server entry's knows them all and adds client credentials and response validation.
 */
export class BaseCreditClient<Ids extends AnyOperationId> {
  protected readonly context: SendContext;

  constructor(
    private readonly routes: Record<Ids, string>,
    options: CommonOptions & { auth: CreditAuth | undefined },
    /** What only the server entry brings: zod validation of success bodies, and the token endpoint's errors. */
    server: { validate?: ResponseValidator; credentialsError?: CredentialsErrorParser } = {},
  ) {
    this.context = {
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      auth: options.auth,
      validate: server.validate,
      credentialsError: server.credentialsError,
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries },
      headers: options.headers ?? {},
      now: options.now ?? Date.now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
  }

  /**
   * Calls one operation and answers its result: the resource (`data`), a `Page` for a list, undefined for a
   * 204. Errors are thrown as `CreditApiError` (and the other `CreditError`s).
   */
  async call<Id extends Ids>(operationId: Id, ...args: CallArgsTuple<Id>): Promise<CallResult<Id>> {
    const route = this.routeOf(operationId);
    const response = await send(this.context, operationId, route, args[0] as SendArgs | undefined);
    const body = response.body as { data?: unknown } | undefined;
    return (route.success === 'data' ? body?.data : body) as CallResult<Id>;
  }

  /** Like `call`, with the whole response: status, headers (`Idempotent-Replayed`, rate limits), request id, body. */
  async request<Id extends Ids>(operationId: Id, ...args: CallArgsTuple<Id>): Promise<ApiResponse<ResponseBody<Id>>> {
    return (await send(this.context, operationId, this.routeOf(operationId), args[0] as SendArgs | undefined)) as ApiResponse<
      ResponseBody<Id>
    >;
  }

  /**
   * Every item of a cursor list, page after page: `for await (const user of client.list('listUsers'))`.
   * `query.limit` sets the page size; nothing is fetched until the loop starts.
   */
  list<Id extends ListOperationId & Ids>(operationId: Id, ...args: CallArgsTuple<Id>): AutoPaginator<ListItem<Id>> {
    const first = (args[0] ?? {}) as SendArgs;
    const fetchPage = (cursor: string | undefined) =>
      this.call(operationId, ...([{ ...first, query: { ...first.query, cursor } }] as CallArgsTuple<Id>)) as Promise<
        Page<ListItem<Id>>
      >;
    return new AutoPaginator(fetchPage, first.query?.cursor as string | undefined);
  }

  private routeOf(operationId: string): Route {
    const spec = (this.routes as Record<string, string | undefined>)[operationId];
    if (!spec) throw new TypeError(`Unknown operation "${operationId}"`);
    return parseRoute(spec);
  }
}
