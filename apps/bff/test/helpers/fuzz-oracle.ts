import { hasRefusedCharacter } from './fuzz-hostile.ts';
import type { RawResponse } from './fuzz-http.ts';
import type { FuzzRequest } from './fuzz-requests.ts';
import type { FuzzWorld } from './fuzz-world.ts';
import { prefixOf } from './fuzz-zod.ts';

/**
 * What every answer must satisfy, whatever was asked (DECISIONS.md "Errors, status codes, limits").
 * `FUZZ_SKIP_CHECKS=etag,openapi` turns named checks off while triaging, to see what else a run finds;
 * the suite itself never sets it.
 */
export const CHECKS = [
  'no-5xx',
  'no-etag',
  'www-authenticate',
  'openapi',
  'documented-code',
  'details',
  'id-404',
  'refused',
  'error-size',
  'doc-url',
  'no-parameters',
] as const;

/** An error answer is bounded whatever the request: at most 25 details and one "more", each entry short. */
const MAX_ERROR_BYTES = 16 * 1024;
export type CheckName = (typeof CHECKS)[number];
const skipped = new Set((process.env.FUZZ_SKIP_CHECKS ?? '').split(',').filter(Boolean));

type ErrorBody = { error?: { code?: unknown; docUrl?: unknown; details?: { field: string; message: string }[] } };

const decoded = (raw: string): string | undefined => {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
};

/** Every way `response` breaks the rules for `request`; empty when it keeps them all. */
export const judge = (world: FuzzWorld, request: FuzzRequest, response: RawResponse): string[] => {
  const problems: [CheckName, string][] = [];
  const { op } = request;
  const { status, headers } = response;
  const body = response.body as ErrorBody | undefined;
  const error = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : undefined;

  if (status >= 500) problems.push(['no-5xx', `answered ${status}`]);
  if (headers.get('etag')) problems.push(['no-etag', `carries ETag ${headers.get('etag')} (API responses are no-store)`]);
  if (status === 304) problems.push(['no-etag', 'answered 304 Not Modified']);
  if (status === 401) {
    const challenge = headers.get('www-authenticate') ?? '';
    if (op.auth.kind === 'bearer' && !/^Bearer\b/i.test(challenge)) {
      problems.push(['www-authenticate', `401 without WWW-Authenticate: Bearer (got "${challenge}")`]);
    } else if (op.auth.kind === 'bearer' && request.bearerSent && !/error="invalid_token"/.test(challenge)) {
      problems.push(['www-authenticate', `401 to a bearer token without error="invalid_token" (got "${challenge}")`]);
    } else if (op.auth.kind !== 'bearer' && !challenge) {
      problems.push(['www-authenticate', '401 from the token endpoint without WWW-Authenticate']);
    }
  }
  if (response.jsonError) problems.push(['openapi', `JSON content type, but the body is not JSON: ${response.jsonError}`]);
  try {
    world.checker.assertMatches(request.method, request.target.split('?')[0] as string, status, headers, response.body, op.path);
  } catch (e) {
    problems.push(['openapi', (e as Error).message]);
  }
  if (error && typeof error.code === 'string') {
    const documented = world.checker.documentedErrorCodes(request.method, op.path, status);
    if (!documented.includes(error.code)) {
      problems.push([
        'documented-code',
        `${status} ${error.code} is not among the codes documented for ${status}: ${documented.join(', ') || 'none'}`,
      ]);
    }
    if (error.code === 'VALIDATION_ERROR' && !error.details?.length) {
      problems.push(['details', 'VALIDATION_ERROR without a details entry naming the field']);
    }
    // Every error teaches where to read more: its code's section of the errors page.
    if (typeof error.docUrl !== 'string' || !error.docUrl.endsWith(`/docs/errors#${error.code}`)) {
      problems.push(['doc-url', `${error.code} without a docUrl to /docs/errors#${error.code} (got ${String(error.docUrl)})`]);
    }
  }
  if (error && response.text.length > MAX_ERROR_BYTES) {
    problems.push(['error-size', `an error answer of ${response.text.length} bytes (bound: ${MAX_ERROR_BYTES})`]);
  }
  if (error?.details && error.details.length > 26) {
    problems.push(['error-size', `${error.details.length} details (bound: 25 and one saying how many more)`]);
  }
  if (status === 400 && error?.details) {
    const shape = (op.request.params?.shape ?? {}) as Record<string, never>;
    for (const [name, raw] of Object.entries(request.pathValues)) {
      const value = decoded(raw);
      // A parameter that is no prefixed id (an offer's version number) may well be a 400.
      if (prefixOf(shape[name]) === 'x') continue;
      const prefix = `${prefixOf(shape[name])}_`;
      if (value === undefined || !value.startsWith(prefix) || hasRefusedCharacter(value)) continue;
      // `path.userId` (a body field may share the name: `{"userId": …}` is not the path parameter).
      const blamed = error.details.find((d) => new RegExp(`^(path|params)\\.${name}$`).test(d.field));
      if (blamed) {
        problems.push([
          'id-404',
          `an id with the right prefix (${prefix}) answered 400 "${blamed.message}"; ids that match nothing are 404`,
        ]);
      }
    }
  }
  // A 400 about the query (a date range a schema cannot judge) may well be right; one about the body is not.
  const blamesBody = error?.details?.some((d) => d.field === 'body' || d.field === 'Content-Type');
  if (request.sendsNothing && status === 400 && blamesBody) {
    problems.push(['no-parameters', 'refused no body, a zero-byte body or {} on an operation that takes no parameters']);
  }
  // Whether a 400 names this field is left to the hardening tests: a generated request may be wrong in
  // other fields too, and the details then rightly name those.
  if (request.refusedAt && status >= 200 && status < 300) {
    const item = /^body\.users\.(\d+)\./.exec(request.refusedAt);
    const failed = (response.body as { data?: { failed?: { index: number }[] } })?.data?.failed;
    if (!item || !failed?.some((f) => f.index === Number(item[1]))) {
      problems.push(['refused', `accepted a refused character (control or lone surrogate) at ${request.refusedAt}`]);
    }
  }
  return problems.filter(([check]) => !skipped.has(check)).map(([check, message]) => `[${check}] ${message}`);
};

const clip = (text: string, max = 400) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** The request and answer, enough to replay it with curl; tokens are named by caller, never printed. */
export const describeExchange = (request: FuzzRequest, response?: RawResponse): string => {
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${k === 'authorization' ? `<${request.caller}>` : JSON.stringify(v)}`)
    .join('; ');
  const lines = [
    `${request.op.operationId}: ${request.method} ${clip(request.target)}`,
    `  headers: ${headers}`,
    ...(request.body ? [`  body (${request.body.length} bytes): ${clip(JSON.stringify(request.bodyValue) ?? '')}`] : []),
  ];
  if (response) {
    const interesting = ['content-type', 'etag', 'www-authenticate'].filter((h) => response.headers.get(h));
    lines.push(
      `  → ${response.status} ${interesting.map((h) => `${h}: ${response.headers.get(h)}`).join('; ')}`,
      `  → ${clip(response.text)}`,
    );
  }
  return lines.join('\n');
};
