/**
 * What the client needs to know to send one operation and read its answer, without the contract's zod
 * schemas. The browser entry ships these as one line each (src/routes.generated.ts), read by `parseRoute`:
 * `'POST /v1/users/enroll idempotent'` is the method, the path, then any of the words below.
 */
export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path: `/v1/users/{userId}`. */
  path: string;
  /** `credentials`: the token endpoint, authenticated by the client id and secret in its body (no bearer token). */
  credentials: boolean;
  /** A POST that honours `Idempotency-Key`: the client sends one key per logical call, retries included. */
  idempotent: boolean;
  /** `form`: the body goes as `application/x-www-form-urlencoded` instead of JSON. */
  form: boolean;
  /**
   * What a success body holds: `data` the envelope around one resource (no word), `list` a page, `raw` a body
   * without the envelope (OAuth), `none` no body (204).
   */
  success: 'data' | 'list' | 'raw' | 'none';
}

export const ROUTE_FLAGS = ['credentials', 'idempotent', 'form', 'list', 'raw', 'none'] as const;

export const parseRoute = (spec: string): Route => {
  const [method, path = '', ...flags] = spec.split(' ');
  const has = (flag: (typeof ROUTE_FLAGS)[number]) => flags.includes(flag);
  return {
    method: method as Route['method'],
    path,
    credentials: has('credentials'),
    idempotent: has('idempotent'),
    form: has('form'),
    success: has('list') ? 'list' : has('raw') ? 'raw' : has('none') ? 'none' : 'data',
  };
};
