import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { envelope, listEnvelope, ZMeta } from './common.ts';
import { ERROR_CODES, type ErrorCode, OAUTH_ERRORS, ZErrorBody, ZOAuthError } from './errors.ts';
import { RECORDED_EXAMPLES } from './examples.generated.ts';
import { applyStringPolicyPatterns } from './openapi-string-policy.ts';
import { documentedErrors, type Operation } from './operation.ts';
import { ALL_OPERATIONS } from './operations/index.ts';
import { EVENT_DATA_SCHEMAS, EVENT_DESCRIPTIONS, EVENT_ENVELOPE_SCHEMAS } from './resources/events.ts';
import type { TEventType } from './resources/webhooks.ts';
import { SAFE_LINE_PATTERN } from './strings.ts';
import { z } from './zod.ts';

const rateLimitHeaders = {
  'X-Request-ID': { description: 'Echoes the caller’s X-Request-ID, or a new `req_…`.', schema: { type: 'string' as const } },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the current window for this bucket.',
    schema: { type: 'integer' as const },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' as const } },
  'X-RateLimit-Reset': { description: 'Unix time (seconds) when the window resets.', schema: { type: 'integer' as const } },
};

/** The schema of an operation's success body (envelope, list envelope or raw), or undefined for a 204. */
export const successBody = (op: Operation) => {
  const { data, list, raw, meta } = op.success;
  if (!data) return undefined;
  if (raw) return data;
  if (list) return listEnvelope(data);
  return meta ? z.object({ data, meta: ZMeta.extend(meta.shape) }) : envelope(data);
};

/** RFC 6750 §3: every 401 of a bearer route names the scheme to use. */
const wwwAuthenticateHeader = {
  'WWW-Authenticate': {
    description: '`Bearer`, with `error="invalid_token"` when the token sent was malformed, unknown, revoked or expired.',
    schema: { type: 'string' as const },
  },
};

/** Where an error code is explained, with what to do about it: the page the API serves beside this reference. */
export const ERROR_PAGE_PATH = '/docs/errors';
export const errorPageLink = (code: string) => `${ERROR_PAGE_PATH}#${code}`;

const errorResponses = (op: Operation) => {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of documentedErrors(op)) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, list] of byStatus) {
    responses[status] = {
      description: list.map((code) => `[\`${code}\`](${errorPageLink(code)}): ${ERROR_CODES[code].when}`).join('\n\n'),
      headers:
        status === 429
          ? { ...rateLimitHeaders, 'Retry-After': { schema: { type: 'integer' } } }
          : status === 401
            ? { ...rateLimitHeaders, ...wwwAuthenticateHeader }
            : rateLimitHeaders,
      content: { 'application/json': { schema: ZErrorBody } },
    };
  }
  if (op.auth.kind === 'client-credentials') {
    for (const [code, status] of Object.entries(OAUTH_ERRORS)) {
      const existing = responses[status] as { description: string } | undefined;
      responses[status] = {
        description: `${existing ? `${existing.description}\n\n` : ''}OAuth error \`${code}\``,
        headers: status === 401 ? { ...rateLimitHeaders, 'WWW-Authenticate': { schema: { type: 'string' } } } : rateLimitHeaders,
        content: { 'application/json': { schema: ZOAuthError } },
      };
    }
  }
  return responses;
};

const describeAccess = (op: Operation) => {
  if (op.auth.kind === 'client-credentials') return 'Authenticated by client credentials.';
  const scope = op.auth.scope === 'admin' ? '`admin`' : `\`${op.auth.scope}\` (or \`admin\`)`;
  const parts = [`Requires scope ${scope}.`];
  if (op.auth.userTokenOnly) parts.push('Accepts user tokens only.');
  else if (op.auth.userToken === 'own-user') parts.push('Also accepts a user token for its own user.');
  else if (op.auth.userToken === 'self') parts.push('Also accepts a user token.');
  else parts.push('User tokens are refused.');
  if (op.sandboxOnly) parts.push('Sandbox only: `404` on production.');
  if (op.idempotent) parts.push('Honours `Idempotency-Key`.');
  parts.push(`Rate-limit bucket: \`${op.rateLimit}\`.`);
  return parts.join(' ');
};

/** The longest `Idempotency-Key` the server accepts (it answers `400` on the header past it). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The `Idempotency-Key` header as the server reads it (http/route.ts): 1–255 characters under the string policy. */
const idempotencyKeyHeader = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .regex(new RegExp(SAFE_LINE_PATTERN))
  .optional()
  .openapi({
    param: {
      name: 'Idempotency-Key',
      in: 'header',
      description:
        'Makes the request safe to retry. A completed answer is stored for 24 h and replayed, with ' +
        '`Idempotent-Replayed: true`, to a request with the same key (validation errors, `429` and 5xx are not stored); ' +
        'the same key with another path or body, or while the first request is still running, is ' +
        `\`409 IDEMPOTENCY_CONFLICT\`. 1–${IDEMPOTENCY_KEY_MAX_LENGTH} characters, ` +
        'with no control characters (U+0000–U+001F) and no unpaired surrogates; any other value is ' +
        '`400 VALIDATION_ERROR` on `Idempotency-Key`. Keys are per client, and per user for user tokens.',
      example: 'enrol-cust-1001-2f9c',
    },
  });

const registerOperation = (registry: OpenAPIRegistry, op: Operation) => {
  const body = successBody(op);
  // A real request and answer from a sandbox run (`pnpm examples`), shown beside the schemas.
  const recorded = RECORDED_EXAMPLES[op.operationId];
  const requestExample = recorded?.request?.body !== undefined ? { example: recorded.request.body } : {};
  const responseExample = recorded?.response.body !== undefined ? { example: recorded.response.body } : {};
  const successHeaders = op.deprecated
    ? {
        ...rateLimitHeaders,
        Deprecation: { schema: { type: 'string' as const } },
        Sunset: { schema: { type: 'string' as const } },
      }
    : op.idempotent
      ? {
          ...rateLimitHeaders,
          'Idempotent-Replayed': {
            description: '`true` when this is a replay of a stored response.',
            schema: { type: 'string' as const },
          },
        }
      : rateLimitHeaders;
  registry.registerPath({
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, describeAccess(op)].filter(Boolean).join('\n\n'),
    deprecated: op.deprecated ? true : undefined,
    security: op.auth.kind === 'bearer' ? [{ bearerAuth: [] }] : [],
    'x-required-scope': op.auth.kind === 'bearer' ? op.auth.scope : undefined,
    'x-rate-limit-bucket': op.rateLimit,
    request: {
      params: op.request.params,
      query: op.request.query,
      headers: op.idempotent ? [idempotencyKeyHeader] : undefined,
      body: op.request.body
        ? {
            // The server reads no body as `{}`, so a body is required exactly when `{}` is refused.
            required: !op.request.body.safeParse({}).success,
            content: { [op.request.bodyType ?? 'application/json']: { schema: op.request.body, ...requestExample } },
          }
        : undefined,
    },
    responses: {
      [op.success.status]: {
        description: op.success.description,
        headers: successHeaders,
        ...(body ? { content: { 'application/json': { schema: body, ...responseExample } } } : {}),
      },
      ...errorResponses(op),
    },
  } as Parameters<OpenAPIRegistry['registerPath']>[0]);
};

const headerParam = (name: string, description: string, example: string) =>
  z.string().openapi({ param: { name, in: 'header', description, example } });

/** Each event type as an OpenAPI 3.1 webhook: the POST the service sends to a subscription's `url`. */
const registerEventWebhook = (registry: OpenAPIRegistry, type: TEventType) => {
  registry.registerWebhook({
    method: 'post',
    path: type,
    operationId: `event.${type}`,
    tags: ['Events'],
    summary: type,
    description:
      `${EVENT_DESCRIPTIONS[type]}\n\nSent to subscriptions whose \`events\` include \`${type}\`. ` +
      'Verify `X-Service-Signature` before trusting the body; the same `id` may arrive more than once.',
    request: {
      headers: [
        headerParam(
          'X-Service-Signature',
          '`t=<unix seconds>,v1=<hex>`: `v1` is the lowercase hex HMAC-SHA256, keyed with the subscription ' +
            '`secret`, of `<t>.<raw body>`. Reject when `t` is more than 300 s from your clock or `v1` differs ' +
            '(constant-time compare).',
          't=1768473000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
        ),
        headerParam('X-Service-Event-Id', 'The envelope `id`, stable across retries.', 'evt_7Yu9iO1pA3sD5fG7'),
      ],
      body: { required: true, content: { 'application/json': { schema: EVENT_ENVELOPE_SCHEMAS[type] } } },
    },
    responses: {
      '2XX': { description: 'Any 2xx within 30 s acknowledges the delivery.' },
      default: { description: 'Anything else, or no answer in 30 s: retried after 1 min, 5 min, 30 min, 2 h, 24 h.' },
    },
  });
};

const API_DESCRIPTION = `
Credit scores, enrolment, offers, alerts, identity verification and signed webhooks for banks and credit unions.

**Envelope.** Successful bodies are \`{data, meta:{requestId, timestamp}}\`; lists add \`pagination:{hasMore, nextCursor, total}\`.
Errors are \`{error:{code, message, details?}, meta}\`; the status of each code is listed per response, and each code
links to [its explanation and what to do](/docs/errors).

**Authentication.** OAuth 2.0 client credentials at \`POST /oauth/token\`; send \`Authorization: Bearer <token>\`.
User tokens (\`ut_…\`) from \`POST /v1/auth/user-token\` open only the routes of their own user.

**Rate limits** per client: token endpoints 100/min, batch 50/min, everything else 1,000/min. Every response carries
\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\`; \`429\` adds \`Retry-After\` and \`retryAfter\`.

**Idempotency.** Creating POSTs accept \`Idempotency-Key\` (1–255 characters, no control characters): a completed response is replayed for 24 h with
\`Idempotent-Replayed: true\`; reusing a key for a different request, or while the first is running, is \`409 IDEMPOTENCY_CONFLICT\`.

**Lists.** \`limit\` 1–100 (default 25), opaque \`cursor\`, \`createdAfter\`/\`createdBefore\`, \`sort\` such as \`-createdAt,lastName\`.
Cursors are signed: pass \`nextCursor\` back unchanged, with the same filters; any other value is \`400 VALIDATION_ERROR\` on \`cursor\`.

**Input rules.** Every string in a path, query or body refuses C0 control characters (U+0000–U+001F; free-text fields
allow tab and line breaks) and unpaired UTF-16 surrogates: \`400 VALIDATION_ERROR\` naming the field (the \`pattern\` of
each request string states the control-character rule; patterns name no surrogates, which most validators refuse). A body may nest arrays and objects at most 32 levels deep (more is \`400 VALIDATION_ERROR\`
on \`body\`). Dates are ISO 8601 in the years 1900–9999. Path segments must be valid percent-encoding.
An id with the right prefix that matches nothing is \`404 NOT_FOUND\`; only a wrong prefix is a \`400\`.
Bodies may be sent with \`Content-Encoding: gzip\`, \`deflate\` or \`br\`; a body that does not decode, or another
encoding, is \`400 VALIDATION_ERROR\` on \`Content-Encoding\`.

**Caching.** Responses are private and carry \`Cache-Control: no-store\`; there are no \`ETag\`s and never a \`304\`.
Every \`401\` carries \`WWW-Authenticate: Bearer\` (with \`error="invalid_token"\` when the token sent was refused).

**Webhooks.** Deliveries are signed with the subscription secret twice: \`X-Service-Signature: t=<unix>,v1=<hex>\`
(the HMAC-SHA256 of \`<t>.<body>\`) and the Standard Webhooks headers \`webhook-id\`, \`webhook-timestamp\` and
\`webhook-signature\`, which that standard's libraries verify. The event bodies are listed under *Webhooks* in this
document.
`.trim();

/** Where a document is served: each environment's lists the operations it answers. */
export type OpenApiEnvironment = 'sandbox' | 'production';

/** What the sandbox adds, with its magic ssns (the sandbox bureau's; docs/partner/credit-data.md tells each story). */
const SANDBOX_DESCRIPTION = `
**Sandbox.** Scores follow VantageScore 3.0 and every user gets a deterministic synthetic credit file that evolves
month by month. The last four digits of the ssn at enrolment choose the file: \`0000\` is frozen (the score, its
history, the credit report, simulations, offers and clicks answer \`403 CREDIT_FROZEN\`); with \`9999\` identity
verification always fails; \`1001\`–\`1004\` are stories for testing monitoring: \`1001\` raises every alert type
within any twelve monthly refreshes, \`1002\` never changes (no alert ever), \`1003\` carries a fraud alert from the
start, \`1004\` is a good score on costly credit, so refinance offers carry savings. Helpers under \`/v1/sandbox\`
(scope \`admin\`) refresh scores, create alerts, convert offers, reveal verification answers and run test clocks
(months of monitoring in seconds).
`.trim();

const PRODUCTION_DESCRIPTION = `
**Environments.** This is production's document. The sandbox serves its own, at its own URL, with test values and
the helpers under \`/v1/sandbox\`, which production does not have.
`.trim();

/**
 * The OpenAPI document of one environment: `sandbox` (the default) lists every operation of the contract, `production`
 * leaves out the sandbox-only ones, which answer `404` there, so a client generated from it offers only calls that work.
 */
// Annotated so the published declarations name the generator's document type instead of a path inside node_modules.
export const buildOpenApiDocument = (
  serverUrl = '/',
  { environment = 'sandbox' }: { environment?: OpenApiEnvironment } = {},
): ReturnType<OpenApiGeneratorV31['generateDocument']> => {
  const production = environment === 'production';
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An access token from `POST /oauth/token`, or a user token (`ut_…`) where the route accepts one.',
  });
  for (const op of ALL_OPERATIONS) if (!(production && op.sandboxOnly)) registerOperation(registry, op);
  for (const type of Object.keys(EVENT_DATA_SCHEMAS) as TEventType[]) {
    // A test clock's event: nothing in production sends it.
    if (!(production && type.startsWith('sandbox.'))) registerEventWebhook(registry, type);
  }
  const description = `${API_DESCRIPTION}\n\n${production ? PRODUCTION_DESCRIPTION : SANDBOX_DESCRIPTION}`;
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Credit Score, Enrollment and Offers API', version: '1.2.0', description },
    servers: [{ url: serverUrl }],
  });
  applyStringPolicyPatterns(document);
  return document;
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
