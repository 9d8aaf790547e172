import type { SessionRefresher } from '../session/refresh.ts';
import { authHeaders, type Fetch, type WidgetSession, type WidgetSessionState } from '../session/session.ts';
import { errorFromResponse, isAbort, networkError, WidgetApiError } from './errors.ts';

export { WidgetApiError } from './errors.ts';

export interface Envelope<T> {
  data: T;
  pagination?: { hasMore: boolean; nextCursor?: string | null; total?: number };
  meta?: { requestId: string; timestamp: string };
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  body?: unknown;
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/**
 * Calls the API (same origin: the frame is served by it) with the widget session. An expired token is
 * renewed through the host once, then the call is repeated; the page never reloads.
 */
export class ApiClient {
  constructor(
    private readonly session: WidgetSession,
    private readonly refresher: SessionRefresher,
    private readonly fetch: Fetch = (input, init) => globalThis.fetch(input, init),
  ) {}

  async request<T>(method: HttpMethod, path: string, options: ApiRequestOptions = {}): Promise<Envelope<T>> {
    const sentWith = this.session.current();
    let response = await this.send(method, path, options, sentWith);
    if (response.status === 401) {
      const error = await errorFromResponse(response);
      if (error.code !== 'AUTHENTICATION_ERROR') throw error;
      // A call that left before another call's refresh finished fails late: the newer session already
      // answers for it, and asking the host again would mint a second token and a second session.
      const newer = this.session.current();
      const session = newer && newer !== sentWith ? newer : await this.refresher.refresh();
      response = await this.send(method, path, options, session);
    }
    if (!response.ok) throw await errorFromResponse(response);
    if (response.status === 204) return { data: undefined as T };
    try {
      return (await response.json()) as Envelope<T>;
    } catch (error) {
      throw new WidgetApiError(response.status, 'UNKNOWN', error instanceof Error ? error.message : 'Unreadable response');
    }
  }

  private async send(
    method: HttpMethod,
    path: string,
    options: ApiRequestOptions,
    session: WidgetSessionState | null,
  ): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json', ...authHeaders(session) };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    try {
      return await this.fetch(path, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'same-origin',
        signal: options.signal,
      });
    } catch (error) {
      if (isAbort(error)) throw error;
      throw networkError(error);
    }
  }
}

/** A fresh key per submit attempt: a retried network failure must not enrol twice. */
export const newIdempotencyKey = (): string =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
