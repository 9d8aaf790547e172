import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import proxyAddr from 'proxy-addr';
import typeIs from 'type-is';
import type { Principal } from '../core/principal.ts';
import type { ReadTarget } from './request-target.ts';

/** A body that could not be parsed; raised after rate limiting so the 400 still carries limits. */
export type BodyError = { type?: string; message: string };

/** What the API's steps and handlers read of a request, whichever way it is served: an `ApiRequest`. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  /** The request target as sent: path and query string. */
  readonly originalUrl: string;
  readonly headers: IncomingHttpHeaders;
  readonly ip: string | undefined;
  readonly query: Record<string, unknown>;
  get(name: string): string | undefined;
  is(type: string): string | false | null;
  params: Record<string, unknown>;
  body: unknown;
  bodyError?: BodyError | undefined;
  /** The body no parser read said nothing: no byte, or only `{}` (http/body-shape.ts). */
  emptyBody?: boolean | undefined;
  requestId: string;
  /** The caller's own `X-Request-ID`, when it sent an acceptable one: echoed and logged, never our id. */
  correlationId?: string | undefined;
  /** Who the bearer token (or widget session) says the caller is, once resolved. */
  principal?: Principal | undefined;
  /** Why the presented token was not accepted, for the 401 message. */
  authFailure?: string | undefined;
  /** The token the principal was resolved from (bearer or widget session), for the widget session exchange. */
  presentedToken?: string | undefined;
}

/** Whom to believe about the client's address (`TRUST_PROXY`), compiled once as Express compiles it. */
export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * The API's request context: the Node request it came in as (read, never changed: body-parser alone sets its `body`),
 * and every field the API's steps set, created together in one shape. A contract operation is served over one; so is
 * every page Express serves, which finds it in `res.locals` (`apiRequestOf`).
 */
export class ApiRequest implements HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly originalUrl: string;
  readonly headers: IncomingHttpHeaders;
  readonly raw: IncomingMessage;
  params: Record<string, unknown> = {};
  body: unknown = undefined;
  bodyError: BodyError | undefined = undefined;
  emptyBody: boolean | undefined = undefined;
  requestId: string = undefined as unknown as string; // set first of all (request-id.ts)
  correlationId: string | undefined = undefined;
  principal: Principal | undefined = undefined;
  authFailure: string | undefined = undefined;
  presentedToken: string | undefined = undefined;
  readonly #trust: TrustProxy;
  #ip: string | undefined = undefined;
  #query: Record<string, unknown> | undefined = undefined;

  constructor(raw: IncomingMessage, target: ReadTarget, trust: TrustProxy) {
    this.raw = raw;
    this.method = raw.method ?? 'GET';
    this.originalUrl = target.url;
    this.path = target.path;
    this.headers = raw.headers;
    this.#trust = trust;
  }

  get ip(): string | undefined {
    this.#ip ??= proxyAddr(this.raw, this.#trust);
    return this.#ip;
  }

  /** The query string as Express's `simple` parser reads it (node:querystring). */
  get query(): Record<string, unknown> {
    if (this.#query) return this.#query;
    const at = this.originalUrl.indexOf('?');
    // node:querystring's object has no prototype, as Express's `simple` parser answers it.
    const query: Record<string, unknown> = at === -1 ? Object.create(null) : parseQueryString(this.originalUrl.slice(at + 1));
    this.#query = query;
    return query;
  }

  get(name: string): string | undefined {
    const key = name.toLowerCase();
    const value = this.headers[key === 'referrer' ? 'referer' : key];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  is(type: string): string | false | null {
    return typeIs(this.raw, [type]);
  }
}

/** The API's request context of a page Express serves, made by the app's first step (app.ts). */
export const apiRequestOf = (res: { locals: Record<string, unknown> }): ApiRequest => res.locals.apiRequest as ApiRequest;
