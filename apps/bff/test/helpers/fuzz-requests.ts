import { type Operation, ZEnrollmentInput } from '@credit/contract';
import fc from 'fast-check';
import type { z } from 'zod';
import { bodyMutationArbitrary, hostilePathSegments, mutateBody, REFUSED_STRINGS } from './fuzz-hostile.ts';
import type { RawRequest } from './fuzz-http.ts';
import { describeExchange } from './fuzz-oracle.ts';
import {
  applyQueryMutation,
  encodeText,
  type QueryMutation,
  type QueryValue,
  queryMutationArbitrary,
  rawQueryValue,
} from './fuzz-query.ts';
import { CONTENT_TYPES, type ContentType, defaultContentType, ENCODINGS, type Encoding, encode, serialise } from './fuzz-wire.ts';
import { EMBED_ORIGIN, type FuzzWorld, fixtureIds } from './fuzz-world.ts';
import { prefixOf, zodArbitrary } from './fuzz-zod.ts';

/** What one property varies; the rest of the request stays well-formed so the varied part is what gets judged. */
export type Category = 'path' | 'query' | 'body' | 'transport' | 'auth';

export type CallerName = 'admin' | 'scoped' | 'user' | 'other-client' | 'none' | 'garbage' | 'wrong-env' | 'basic' | 'basic-nul';

export interface FuzzRequest extends RawRequest {
  op: Operation;
  caller: CallerName;
  /** Each path parameter as sent (raw, percent-encoded or not). */
  pathValues: Record<string, string>;
  /** The JSON-able body before serialisation, for the report. */
  bodyValue?: unknown;
  /** `body.<field>` or `query.<name>` holding a refused character: the server must not accept the request. */
  refusedAt?: string;
  /** An `Authorization: Bearer …` header was sent (a 401 must then say `error="invalid_token"`). */
  bearerSent: boolean;
  /** To an operation without a body: no body, a zero-byte one or `{}`, which means no parameters (never a 400). */
  sendsNothing?: boolean;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

const authorization = (world: FuzzWorld, op: Operation, caller: CallerName): string | undefined => {
  const { tokens, client } = world;
  switch (caller) {
    case 'admin':
      return `Bearer ${tokens.admin}`;
    case 'scoped':
      return `Bearer ${op.auth.kind === 'bearer' ? tokens.byScope[op.auth.scope] : tokens.admin}`;
    case 'user':
      return `Bearer ${tokens.user}`;
    case 'other-client':
      return `Bearer ${tokens.otherClient}`;
    case 'garbage':
      return 'Bearer garbage';
    case 'wrong-env':
      return `Bearer at_live_${'A'.repeat(32)}`;
    case 'basic':
      return basic(client.id, client.secret);
    case 'basic-nul':
      return basic(`${client.id}\u0000`, client.secret);
    case 'none':
      return undefined;
  }
};

const callerArbitrary = (op: Operation, category: Category): fc.Arbitrary<CallerName> => {
  if (op.auth.kind === 'client-credentials') {
    return category === 'auth' ? fc.constantFrom('none', 'basic', 'basic-nul', 'garbage') : fc.constant('none');
  }
  const real = fc.constantFrom<CallerName>('admin', 'scoped', 'user', 'other-client');
  if (category !== 'auth')
    return fc.oneof({ arbitrary: real, weight: 9 }, { arbitrary: fc.constant<CallerName>('none'), weight: 1 });
  return fc.oneof(real, fc.constantFrom<CallerName>('none', 'garbage', 'wrong-env', 'basic', 'basic-nul'));
};

/** Path parameters: the fixtures, other well-formed ids, and raw hostile segments. */
const pathArbitrary = (world: FuzzWorld, op: Operation, category: Category): fc.Arbitrary<Record<string, string>> => {
  const shape = (op.request.params?.shape ?? {}) as Record<string, z.ZodType>;
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return fc.record(
    Object.fromEntries(
      names.map((name) => {
        const fixtures = fc.constantFrom(...fixtureIds(world, op, name));
        if (category !== 'path') return [name, fixtures];
        const wellFormed = zodArbitrary(shape[name] as z.ZodType).map((v) => encodeText(String(v)));
        const hostile = fc.constantFrom(...hostilePathSegments(prefixOf(shape[name])));
        return [
          name,
          fc.oneof({ arbitrary: fixtures, weight: 2 }, { arbitrary: wellFormed, weight: 2 }, { arbitrary: hostile, weight: 5 }),
        ];
      }),
    ),
  );
};

/** Field overrides so generated bodies and queries point at the world's real things. */
export const overridesFor = (world: FuzzWorld, op: Operation): Record<string, fc.Arbitrary<unknown>> => {
  const { client } = world;
  switch (op.operationId) {
    case 'listEvents':
      // A held long poll only slows the run (events-follow.test.ts tests `wait`); `after` names a real event.
      return { wait: fc.constantFrom(undefined, 0), after: fc.option(fc.constant(world.eventId), { nil: undefined }) };
    case 'createAccessToken':
      return {
        grant_type: fc.oneof(
          { arbitrary: fc.constant('client_credentials'), weight: 5 },
          { arbitrary: fc.constantFrom('password', '', 'a\u0000b'), weight: 1 },
        ),
        client_id: fc.oneof(
          { arbitrary: fc.constant(client.id), weight: 5 },
          { arbitrary: fc.constantFrom(`${client.id}\u0000`, 'a\u0000b', 'cli_sbx_unknown0000', 'a\ud800'), weight: 2 },
        ),
        client_secret: fc.oneof(
          { arbitrary: fc.constant(client.secret), weight: 5 },
          { arbitrary: fc.constantFrom('wrong', 'a\u0000b', ''), weight: 1 },
        ),
        scope: fc.option(fc.constantFrom('read', 'admin', 'read write', 'bogus', 'read\u0000'), { nil: undefined }),
      };
    case 'enrollUsersBatch':
      return { 'users[]': zodArbitrary(ZEnrollmentInput) };
    case 'submitVerificationAnswers':
      return {
        sessionId: fc.oneof(
          { arbitrary: fc.constant(world.sessionId), weight: 3 },
          { arbitrary: fc.constant('ver_abcdefghij'), weight: 1 },
        ),
      };
    case 'sandboxGetVerificationAnswers':
      return {
        sessionId: fc.oneof(
          { arbitrary: fc.constant(world.sessionId), weight: 3 },
          { arbitrary: fc.constant('ver_abcdefghij'), weight: 1 },
        ),
      };
    case 'grantConsent':
      // Mostly the current terms version, so generated consents get past it to what the route does with them.
      return {
        termsVersion: fc.oneof(
          { arbitrary: fc.constant(world.app.ctx.config.CONSENT_TERMS_VERSION), weight: 4 },
          { arbitrary: fc.string({ maxLength: 70 }), weight: 1 },
        ),
        acceptedAt: fc.constant(undefined),
      };
    case 'simulateCreditScore':
      // Mostly accounts of the active user's report and amounts within a balance, so actions get past the account
      // checks to the simulation; the rest an unknown account or an amount above any balance.
      return {
        'actions[].accountId': fc.oneof(
          { arbitrary: fc.constantFrom(...world.accounts, 'acc_00000000000000000000'), weight: 4 },
          { arbitrary: fc.constant('acc_00000000000000000000'), weight: 1 },
        ),
        'actions[].amount': fc.oneof(
          { arbitrary: fc.integer({ min: 1, max: 300 }), weight: 4 },
          { arbitrary: fc.integer({ min: 1_000_000, max: 10_000_000 }), weight: 1 },
        ),
      };
    case 'createWidgetSession':
      return { parentOrigin: fc.constantFrom(EMBED_ORIGIN, null, 'https://evil.example') };
    case 'enrollUser':
      // The partner's full input: the self-enrolment shape is for user tokens, which are a small share of callers.
      return { '': zodArbitrary(ZEnrollmentInput) };
    default:
      // No cursor in a well-formed query: a cursor is valid only with the sort it was made for, so the
      // real one comes with its own sort in the "real-cursor" mutation.
      return { cursor: fc.constant(undefined) };
  }
};

/** The choices one request is made of; `toRequest` turns them into bytes. */
export interface Parts {
  caller: CallerName;
  pathValues: Record<string, string>;
  query: [string, QueryValue][];
  queryMutation: QueryMutation;
  body: unknown;
  bodyMutation: Parameters<typeof mutateBody>[1];
  contentType: ContentType;
  encoding: Encoding;
  extraHeaders: Record<string, string>;
  /** Sent with `Transfer-Encoding: chunked` (no body: a zero-byte chunked body, as Node's http.request sends). */
  chunked?: boolean;
  /** A sample of "no parameters" whose other parts are valid: the oracle holds it to never being a 400. */
  nothingSample?: boolean;
}

export const toRequest = (world: FuzzWorld, op: Operation, parts: Parts): FuzzRequest => {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => parts.pathValues[name] as string);
  const query = applyQueryMutation(world, op, parts.query, parts.queryMutation);
  const target = query.pairs.length
    ? `${path}?${query.pairs.map(([k, v]) => `${k.includes('%') ? k : encodeText(k)}=${rawQueryValue(v)}`).join('&')}`
    : path;
  const headers: Record<string, string> = { accept: 'application/json', ...parts.extraHeaders };
  const auth = authorization(world, op, parts.caller);
  if (auth) headers.authorization = auth;
  let refusedAt = query.refusedAt;
  let bodyValue: unknown;
  let body: Buffer | undefined;
  if (parts.body !== undefined) {
    const mutated = mutateBody(parts.body, parts.bodyMutation);
    bodyValue = mutated.body;
    // Only a body the route reads, sent the way it reads it, must be refused for what it holds.
    if (
      mutated.refusedAt !== undefined &&
      op.request.body &&
      parts.contentType === defaultContentType(op) &&
      parts.encoding === 'none'
    ) {
      refusedAt ??= `body${mutated.refusedAt ? `.${mutated.refusedAt}` : ''}`;
    }
    const serialised = serialise(bodyValue, parts.contentType);
    const encoded = encode(serialised.bytes, parts.encoding);
    if (serialised.type) headers['content-type'] = serialised.type;
    if (encoded.header) headers['content-encoding'] = encoded.header;
    body = encoded.bytes;
  }
  if (parts.chunked) headers['transfer-encoding'] = 'chunked';
  const saidNothing =
    bodyValue === undefined ||
    (typeof bodyValue === 'object' && bodyValue !== null && !Array.isArray(bodyValue) && Object.keys(bodyValue).length === 0);
  const request: FuzzRequest = {
    op,
    caller: parts.caller,
    method: op.method.toUpperCase(),
    target,
    headers,
    body,
    bodyValue,
    pathValues: parts.pathValues,
    refusedAt,
    bearerSent: /^Bearer /.test(auth ?? ''),
    sendsNothing:
      Boolean(parts.nothingSample) &&
      !op.request.body &&
      saidNothing &&
      parts.encoding === 'none' &&
      PLAIN_CONTENT_TYPES.includes(parts.contentType),
  };
  // fast-check prints counterexamples with this: the exchange, not the operation's zod schemas.
  return Object.assign(request, { [fc.toStringMethod]: () => describeExchange(request) });
};

/** Content types a `{}` means nothing in: JSON, and the ones no parser takes or whose parser reads `{}` as no field. */
const PLAIN_CONTENT_TYPES: ContentType[] = ['json', 'json-charset', 'vendor-json', 'text', 'form', 'none'];

const HOSTILE_IDEMPOTENCY_KEYS = ['', 'k'.repeat(256), 'clé', 'key with spaces', 'a'.repeat(255)];
const REQUEST_IDS = ['', 'r'.repeat(500), 'réq', '<script>', 'req_fuzz'];

/**
 * One request of `op` (two for an Idempotency-Key reused on a different request), valid except for the
 * part `category` varies.
 */
export const requestsArbitrary = (world: FuzzWorld, op: Operation, category: Category): fc.Arbitrary<FuzzRequest[]> => {
  const overrides = overridesFor(world, op);
  const querySchema = op.request.query;
  const validQuery = querySchema
    ? zodArbitrary(querySchema, overrides).map((q) =>
        Object.entries(q as Record<string, unknown>).map(([k, v]) => [k, { text: String(v) }] as [string, QueryValue]),
      )
    : fc.constant([] as [string, QueryValue][]);
  const bodySchema = op.request.body;
  const validBody: fc.Arbitrary<unknown> = bodySchema
    ? zodArbitrary(bodySchema, overrides)
    : category === 'body' || category === 'transport'
      ? fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom<unknown>({ a: 'a\u0000b' }, ['a\ud800'], REFUSED_STRINGS))
      : fc.constant(undefined);
  const isGet = op.method === 'get';
  const extraHeaders: fc.Arbitrary<Record<string, string>> =
    category === 'auth'
      ? fc
          .record({
            'if-none-match': fc.option(fc.constantFrom('*', '"x"', 'W/"x"'), { nil: undefined }),
            'x-request-id': fc.option(fc.constantFrom(...REQUEST_IDS), { nil: undefined }),
            'idempotency-key': op.idempotent
              ? fc.option(fc.constantFrom(...HOSTILE_IDEMPOTENCY_KEYS), { nil: undefined })
              : fc.constant(undefined),
          })
          .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== undefined)) as Record<string, string>)
      : category === 'body' && op.idempotent
        ? // A hostile body with a key too: the key's fingerprint walks the body (a 500 found that way once).
          fc.option(
            fc.uuid().map((key) => ({ 'idempotency-key': key })),
            { nil: {} },
          )
        : isGet
          ? fc.option(fc.constant({ 'if-none-match': '*' }), { nil: {}, freq: 3 })
          : fc.constant({});
  const parts = fc.record({
    caller: callerArbitrary(op, category),
    pathValues: pathArbitrary(world, op, category),
    query: validQuery,
    queryMutation: category === 'query' ? queryMutationArbitrary(world, op) : fc.constant<QueryMutation>({ kind: 'none' }),
    body: validBody,
    bodyMutation: category === 'body' ? bodyMutationArbitrary : fc.constant({ kind: 'none' as const }),
    contentType: category === 'transport' ? fc.constantFrom(...CONTENT_TYPES) : fc.constant(defaultContentType(op)),
    encoding: category === 'transport' ? fc.constantFrom(...ENCODINGS) : fc.constant<Encoding>('none'),
    extraHeaders,
  });
  const single = parts.map((p) => [toRequest(world, op, p)]);
  if (category !== 'auth' || !op.idempotent) return single;
  // The same key on two different requests: the second must be 409 IDEMPOTENCY_CONFLICT, documented like any other answer.
  const pair = fc
    .tuple(parts, parts, fc.uuid())
    .map(([a, b, key]) => [
      toRequest(world, op, { ...a, caller: 'admin', extraHeaders: { 'idempotency-key': key } }),
      toRequest(world, op, { ...b, caller: 'admin', extraHeaders: { 'idempotency-key': key } }),
    ]);
  return fc.oneof(single, pair);
};
