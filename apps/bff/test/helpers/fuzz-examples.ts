import type { Operation } from '@credit/contract';
import fc from 'fast-check';
import type { z } from 'zod';
import { AMPLIFYING_BODIES, DEEP_BODIES, getAt, hostilePathSegments, leafPaths } from './fuzz-hostile.ts';
import { hostileQueryTexts, isForgedCursor, type QueryMutation, type QueryValue, UNKNOWN_QUERY_NAMES } from './fuzz-query.ts';
import { type CallerName, type Category, type FuzzRequest, overridesFor, type Parts, toRequest } from './fuzz-requests.ts';
import { CONTENT_TYPES, defaultContentType, ENCODINGS } from './fuzz-wire.ts';
import { type FuzzWorld, fixtureIds } from './fuzz-world.ts';
import { prefixOf, zodArbitrary } from './fuzz-zod.ts';

/**
 * The fixed part of each property: every value of the hostile catalogues, once, in a request that is
 * well-formed otherwise. fast-check runs these before its random runs (`examples`), so each shape that
 * once broke the API (issue 11) is tried on every run, whatever the seed; the random runs then explore
 * the combinations.
 */

const REFUSED_SAMPLES = ['a\u0000b', 'a\ud800'];
const CALLERS: Record<Operation['auth']['kind'], CallerName[]> = {
  // The auth matrix covers every caller on every route; here, one of each kind of answer.
  bearer: ['admin', 'scoped', 'user', 'none', 'garbage', 'basic-nul'],
  'client-credentials': ['none', 'basic', 'basic-nul', 'garbage'],
};

/** Valid values of `schema` (with the world's overrides), the first ones the contract itself accepts. */
const validSamples = (
  schema: z.ZodType,
  overrides: Record<string, fc.Arbitrary<unknown>>,
  seed: number,
  accept: (v: unknown) => unknown = (v) => v,
): unknown[] => {
  const samples = fc.sample(zodArbitrary(schema, overrides), { numRuns: 40, seed });
  const valid = samples.filter((v) => schema.safeParse(accept(v)).success);
  return valid.length ? valid : samples;
};

const stringifyQuery = (q: unknown) =>
  Object.fromEntries(Object.entries((q ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
const toPairs = (q: unknown): [string, QueryValue][] => Object.entries(stringifyQuery(q)).map(([k, v]) => [k, { text: v }]);

/** A fresh `externalUserId` per example, so one enrolment does not turn the next into USER_EXISTS. */
const freshIds = (body: unknown, n: number): unknown =>
  JSON.parse(JSON.stringify(body ?? null), (key, value) =>
    key === 'externalUserId' && typeof value === 'string' ? `${value}-x${n}` : value,
  ) ?? undefined;

export const exampleRequests = (world: FuzzWorld, op: Operation, category: Category, seed: number): FuzzRequest[][] => {
  const overrides = overridesFor(world, op);
  const [query] = op.request.query ? validSamples(op.request.query, overrides, seed, stringifyQuery) : [undefined];
  const bodies = op.request.body
    ? validSamples(op.request.body, overrides, seed)
    : [category === 'body' || category === 'transport' ? { a: 'a\u0000b' } : undefined];
  const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const base: Parts = {
    caller: op.auth.kind === 'bearer' ? (op.auth.userTokenOnly ? 'user' : 'admin') : 'none',
    pathValues: Object.fromEntries(params.map((name) => [name, fixtureIds(world, op, name)[0] as string])),
    query: toPairs(query),
    queryMutation: { kind: 'none' },
    body: bodies[0],
    bodyMutation: { kind: 'none' },
    contentType: defaultContentType(op),
    encoding: 'none',
    extraHeaders: {},
  };
  let n = 0;
  const one = (changes: Partial<Parts>): FuzzRequest[] => {
    n += 1;
    const parts = { ...base, ...changes };
    return [toRequest(world, op, { ...parts, body: freshIds(parts.body, n) })];
  };

  switch (category) {
    case 'path': {
      const shape = (op.request.params?.shape ?? {}) as Record<string, z.ZodType>;
      return params.flatMap((name, i) => {
        const segments = hostilePathSegments(prefixOf(shape[name]));
        // Every segment on the first parameter; the usual suspects on the others.
        return (i === 0 ? segments : segments.slice(0, 3)).map((segment) =>
          one({ pathValues: { ...base.pathValues, [name]: segment } }),
        );
      });
    }
    case 'query': {
      const keys = Object.keys(op.request.query?.shape ?? {});
      const mutations: QueryMutation[] = UNKNOWN_QUERY_NAMES.slice(0, 2).map((name) => ({
        kind: 'unknown',
        name,
        value: { text: 'x' },
      }));
      for (const key of keys) {
        const texts = hostileQueryTexts(key).filter((t) => !isForgedCursor(t));
        for (const text of [...texts, ...REFUSED_SAMPLES]) mutations.push({ kind: 'value', key, value: { text } });
        mutations.push({ kind: 'value', key, value: { raw: '%ZZ' } }, { kind: 'value', key, value: { raw: 'a%00b' } });
      }
      if (keys.includes('cursor')) {
        for (const text of hostileQueryTexts('cursor').filter(isForgedCursor)) {
          mutations.push({ kind: 'forged-cursor', value: { text } });
        }
        if (world.cursors[op.operationId]) mutations.push({ kind: 'real-cursor' });
      }
      return mutations.map((queryMutation) => one({ queryMutation }));
    }
    case 'body': {
      const strings = leafPaths(base.body).filter((path) => typeof getAt(base.body, path) === 'string');
      return [
        ...strings.flatMap((_path, pick) =>
          REFUSED_SAMPLES.map((value) => one({ bodyMutation: { kind: 'string', pick, value, append: true } })),
        ),
        one({ bodyMutation: { kind: 'whole', value: null } }),
        ...DEEP_BODIES.map((value) => one({ bodyMutation: { kind: 'whole', value } })),
        ...AMPLIFYING_BODIES.map((value) => one({ bodyMutation: { kind: 'whole', value } })),
        ...AMPLIFYING_BODIES.map((value) => one({ bodyMutation: { kind: 'whole', value }, encoding: 'gzip' })),
        // With a key as well: the key's fingerprint walks the body, which answered 500 once where no schema bounded it.
        ...(op.idempotent
          ? DEEP_BODIES.map((value, i) =>
              one({
                bodyMutation: { kind: 'whole', value },
                extraHeaders: { 'idempotency-key': `fuzz-deep-${op.operationId}-${seed}-${i}` },
              }),
            )
          : []),
        one({ bodyMutation: { kind: 'unknown-field', name: 'extra', value: 'x' } }),
      ];
    }
    case 'transport':
      // Every encoding and content type where the route reads a body; a sample where it reads none.
      if (!op.request.body) {
        return [
          one({ encoding: 'gzip-raw' }),
          one({ contentType: 'text' }),
          one({ contentType: 'none' }),
          // What clients send for "no parameters": `{}` in any content type, and a zero-byte chunked body.
          ...[
            { body: {} },
            { body: {}, contentType: 'text' as const },
            { body: {}, contentType: 'form' as const },
            { body: {}, contentType: 'none' as const, chunked: true },
            { body: undefined, chunked: true },
          ].map((changes) => one({ ...changes, nothingSample: true })),
        ];
      }
      return [
        ...ENCODINGS.filter((e) => e !== 'none').map((encoding) => one({ encoding })),
        ...CONTENT_TYPES.filter((c) => c !== base.contentType).map((contentType) => one({ contentType })),
      ];
    case 'auth': {
      const requests = CALLERS[op.auth.kind].map((caller) => one({ caller }));
      if (op.method === 'get') requests.push(one({ extraHeaders: { 'if-none-match': '*' } }));
      if (op.idempotent) {
        // One key on two different requests: the second is 409 IDEMPOTENCY_CONFLICT, which must be documented.
        const key = { 'idempotency-key': `fuzz-${op.operationId}-${seed}` };
        const other = params.includes('offerId')
          ? { pathValues: { ...base.pathValues, offerId: world.offers[1] as string } }
          : { body: bodies.find((b) => JSON.stringify(b) !== JSON.stringify(base.body)) };
        requests.push([...one({ extraHeaders: key }), ...one({ ...other, extraHeaders: key })]);
      }
      return requests;
    }
  }
};
