import type { TTokenResponse, TUserTokenRequest, TUserTokenResponse } from '@credit/contract';
import { ClientCredentialsAuth, DEFAULT_RENEWAL_MARGIN_MS } from './access-token.ts';
import type { CreditAuth } from './auth.ts';
import {
  type CallArgs,
  type CallArgsTuple,
  type CallOptions,
  type CallResult,
  findOperation,
  type ListItem,
  type ListOperationId,
  type OperationId,
  type Page,
  type ResponseBody,
} from './operations.ts';
import { AutoPaginator } from './pagination.ts';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, sleep } from './retry.ts';
import { type ApiResponse, type SendArgs, type SendContext, send } from './send.ts';

interface CommonOptions {
  /** `https://api.example.com`, or '' for same-origin calls from a page the API serves. */
  baseUrl: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /** Check every success body against the contract's schema. Default: on unless NODE_ENV is `production`. */
  validateResponses?: boolean;
  /** Retries after the first attempt (429, 503, safe network errors). Default 2. */
  maxRetries?: number;
  /** Backoff and `Retry-After` limits; see `DEFAULT_RETRY_POLICY`. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Milliseconds since the epoch: decides when the access token is renewed. Default `Date.now`. */
  now?: () => number;
  /** How retries wait; tests pass one that records the delay and returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** A partner's server: client credentials, exchanged for access tokens as needed. Keep them off browsers. */
export interface ClientCredentialsOptions extends CommonOptions {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for; every scope of the client when omitted. */
  scope?: string;
  /** Renew the access token this long before it expires. Default 60 s. */
  tokenRenewalMarginMs?: number;
  auth?: never;
}

/** A browser, app or test holding its own credentials (a user token, a widget session). */
export interface CustomAuthOptions extends CommonOptions {
  auth: CreditAuth;
  clientId?: never;
  clientSecret?: never;
}

export type CreditClientOptions = ClientCredentialsOptions | CustomAuthOptions;

/** Reads NODE_ENV where there is one; bundlers replace `process.env.NODE_ENV`, browsers without it throw. */
const isProduction = (): boolean => {
  try {
    return process.env.NODE_ENV === 'production';
  } catch {
    return false;
  }
};

/**
 * The Credit API client. Every operation of the contract is callable by its `operationId`, typed from the
 * contract's schemas: `await client.call('getUser', { params: { userId } })`.
 */
export class CreditClient {
  private readonly context: SendContext;
  private readonly credentials: ClientCredentialsAuth | undefined;

  constructor(options: CreditClientOptions) {
    const now = options.now ?? Date.now;
    this.context = {
      baseUrl: options.baseUrl,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      auth: undefined,
      validateResponses: options.validateResponses ?? !isProduction(),
      retry: { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries },
      headers: options.headers ?? {},
      now,
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    };
    if (options.auth) {
      this.context.auth = options.auth;
    } else {
      const { clientId, clientSecret, scope } = options;
      const requestToken = () =>
        this.call('createAccessToken', {
          body: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret, scope },
        }) as Promise<TTokenResponse>;
      this.credentials = new ClientCredentialsAuth(requestToken, now, options.tokenRenewalMarginMs ?? DEFAULT_RENEWAL_MARGIN_MS);
      this.context.auth = this.credentials;
    }
  }

  /**
   * Calls one operation and answers its result: the resource (`data`), a `Page` for a list, undefined for a
   * 204. Errors are thrown as `CreditApiError` (and the other `CreditError`s).
   */
  async call<Id extends OperationId>(operationId: Id, ...args: CallArgsTuple<Id>): Promise<CallResult<Id>> {
    const operation = findOperation(operationId);
    const response = await send(this.context, operation, args[0] as SendArgs | undefined);
    const { list, raw } = operation.success;
    const body = response.body as { data?: unknown } | undefined;
    return (list || raw ? body : body?.data) as CallResult<Id>;
  }

  /** Like `call`, with the whole response: status, headers (`Idempotent-Replayed`, rate limits), request id, body. */
  async request<Id extends OperationId>(operationId: Id, ...args: CallArgsTuple<Id>): Promise<ApiResponse<ResponseBody<Id>>> {
    return (await send(this.context, findOperation(operationId), args[0] as SendArgs | undefined)) as ApiResponse<
      ResponseBody<Id>
    >;
  }

  /**
   * Every item of a cursor list, page after page: `for await (const user of client.list('listUsers'))`.
   * `query.limit` sets the page size; nothing is fetched until the loop starts.
   */
  list<Id extends ListOperationId>(operationId: Id, ...args: CallArgsTuple<Id>): AutoPaginator<ListItem<Id>> {
    const first = (args[0] ?? {}) as SendArgs;
    const fetchPage = (cursor: string | undefined) =>
      this.call(operationId, ...([{ ...first, query: { ...first.query, cursor } }] as CallArgsTuple<Id>)) as Promise<
        Page<ListItem<Id>>
      >;
    return new AutoPaginator(fetchPage, first.query?.cursor as string | undefined);
  }

  /**
   * A `ut_…` token for one of your users, for the widget or a mobile app (`POST /v1/auth/user-token`).
   * `userId` is your own id for the user (their `externalUserId`).
   */
  mintUserToken(user: TUserTokenRequest, options?: CallOptions): Promise<TUserTokenResponse> {
    return this.call('createUserToken', { ...options, body: user } as CallArgs<'createUserToken'>);
  }

  /** The current access token (client-credentials clients only), fetched or renewed if needed. */
  accessToken(): Promise<string> {
    if (!this.credentials) throw new TypeError('accessToken() needs a client created with clientId and clientSecret');
    return this.credentials.token();
  }
}
