import type { Operation } from '@credit/contract';
import fc from 'fast-check';
import { hasRefusedCharacter, REFUSED_STRINGS } from './fuzz-hostile.ts';
import type { FuzzWorld } from './fuzz-world.ts';

/** Query strings: hostile values by parameter name, forged cursors, and the mutations that put them in a request. */

/** base64url of a JSON cursor with these values, in the shape the keyset cursor has today. */
const forgedCursor = (sort: string, values: unknown[]) =>
  Buffer.from(JSON.stringify({ s: sort, v: values })).toString('base64url');

/** Timestamps `Date.parse` accepts and PostgreSQL does not (year 0, before 4713 BC, plain numbers). */
const JS_ONLY_TIMESTAMPS = [
  '0000-01-01T00:00:00.000Z',
  '1',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '2020-02-30',
];

/**
 * Percent-encodes text for a URL the way a careless client would: like encodeURIComponent, but a lone
 * surrogate becomes its WTF-8 bytes (`%ED%A0%80`) instead of throwing, so it reaches the server.
 */
export const encodeText = (text: string): string =>
  Array.from(text, (ch) => {
    const code = ch.codePointAt(0) as number;
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    }
    return encodeURIComponent(ch);
  }).join('');

/** A query value as text to encode, or as raw bytes sent exactly as written (malformed percent-encoding). */
export type QueryValue = { text: string } | { raw: string };
export const rawQueryValue = (value: QueryValue) => ('raw' in value ? value.raw : encodeText(value.text));

/** Hostile values for any query parameter. */
const COMMON_QUERY_VALUES: QueryValue[] = [
  ...[...REFUSED_STRINGS, '', ' ', 'x'.repeat(5000), 'null', '[object Object]'].map((text) => ({ text })),
  { raw: '%ZZ' },
  { raw: '%E0%A4%A' },
  { raw: 'a%00b' },
];
/** Hostile values for one query parameter: the ones its name calls for (dates, numbers, cursors) come up most. */
export const hostileQueryValueArbitrary = (name: string): fc.Arbitrary<QueryValue> => {
  const specific = hostileQueryTexts(name).map((text) => ({ text }));
  const common = fc.constantFrom(...COMMON_QUERY_VALUES);
  return specific.length
    ? fc.oneof({ arbitrary: fc.constantFrom(...specific), weight: 2 }, { arbitrary: common, weight: 1 })
    : common;
};

export const hostileQueryTexts = (name: string): string[] => {
  const common: string[] = [];
  if (name === 'createdAfter' || name === 'createdBefore') {
    return [
      ...common,
      '0000-01-01T00:00:00Z',
      '0000-12-31T23:59:59.999+00:00',
      '1899-12-31T23:59:59Z',
      '10000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00.000Z',
      '-000001-01-01T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
    ];
  }
  if (name === 'limit' || name === 'months') {
    return [...common, '0', '-1', '1.5', '1e2', '1e309', '99999999999999999999', 'NaN', 'Infinity', '0x10', ' 5', '5 '];
  }
  if (name === 'cursor') {
    return [
      ...common,
      ...JS_ONLY_TIMESTAMPS.map((t) => forgedCursor('-createdAt', [t, 'usr_abcdefghij'])),
      forgedCursor('-createdAt', ['2026-01-01T00:00:00.000Z', 'a\u0000b']),
      forgedCursor('-createdAt', ['2026-01-01T00:00:00.000Z', 'a\ud800']),
      forgedCursor('-createdAt', [{}, []]),
      forgedCursor('-createdAt', [null, null]),
      Buffer.from('not json').toString('base64url'),
      Buffer.from('{"s":"-createdAt","v":').toString('base64url'),
      '!!!!',
    ];
  }
  return common;
};

/** A forged cursor only gets past the sort check with the sort it names: such values come with `sort=-createdAt`. */
export const isForgedCursor = (value: string) => {
  try {
    return (JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { s?: unknown })?.s === '-createdAt';
  } catch {
    return false;
  }
};

/** Names a client might add that the contract does not know: strict queries must refuse them. */
export const UNKNOWN_QUERY_NAMES = ['extra', '__proto__', 'a[b]', 'limit[]', 'a%00b', '%ZZ', ''];

export type QueryMutation =
  | { kind: 'none' }
  | { kind: 'value'; key: string; value: QueryValue }
  | { kind: 'unknown'; name: string; value: QueryValue }
  | { kind: 'repeat'; key: string }
  | { kind: 'forged-cursor'; value: QueryValue }
  | { kind: 'real-cursor' };

export const queryMutationArbitrary = (world: FuzzWorld, op: Operation): fc.Arbitrary<QueryMutation> => {
  const keys = Object.keys(op.request.query?.shape ?? {});
  const choices: fc.WeightedArbitrary<QueryMutation>[] = [
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('unknown' as const),
        name: fc.constantFrom(...UNKNOWN_QUERY_NAMES),
        value: fc.constantFrom<QueryValue>({ text: 'x' }, { text: 'a\u0000b' }, { raw: '%ZZ' }),
      }),
      weight: 1,
    },
  ];
  if (keys.length) {
    choices.push(
      {
        arbitrary: fc
          .constantFrom(...keys)
          .chain((key) =>
            fc.record({ kind: fc.constant('value' as const), key: fc.constant(key), value: hostileQueryValueArbitrary(key) }),
          ),
        weight: 6,
      },
      { arbitrary: fc.record({ kind: fc.constant('repeat' as const), key: fc.constantFrom(...keys) }), weight: 1 },
    );
  }
  if (keys.includes('cursor')) {
    const forged = hostileQueryTexts('cursor')
      .filter(isForgedCursor)
      .map((text) => ({ text }));
    choices.push({
      arbitrary: fc.record({ kind: fc.constant('forged-cursor' as const), value: fc.constantFrom(...forged) }),
      weight: 3,
    });
    if (world.cursors[op.operationId]) choices.push({ arbitrary: fc.constant({ kind: 'real-cursor' as const }), weight: 1 });
  }
  return fc.oneof(...choices);
};

export const applyQueryMutation = (
  world: FuzzWorld,
  op: Operation,
  valid: [string, QueryValue][],
  mutation: QueryMutation,
): { pairs: [string, QueryValue][]; refusedAt?: string } => {
  const without = (...names: string[]) => valid.filter(([k]) => !names.includes(k));
  const refused = (name: string, value: QueryValue) =>
    'text' in value && hasRefusedCharacter(value.text) ? `query.${name}` : undefined;
  switch (mutation.kind) {
    case 'none':
      return { pairs: valid };
    case 'value':
      return {
        pairs: [...without(mutation.key), [mutation.key, mutation.value]],
        refusedAt: refused(mutation.key, mutation.value),
      };
    case 'unknown':
      return { pairs: [...valid, [mutation.name, mutation.value]] };
    case 'repeat': {
      const present = valid.find(([k]) => k === mutation.key);
      return { pairs: [...valid, [mutation.key, present?.[1] ?? { text: '1' }], [mutation.key, { text: '2' }]] };
    }
    case 'forged-cursor':
      // The sort the forged cursor names, so it gets past the sort check to the values themselves.
      return {
        pairs: [...without('cursor', 'sort'), ['cursor', mutation.value], ['sort', { text: '-createdAt' }]],
        refusedAt: undefined,
      };
    case 'real-cursor':
      return { pairs: [...without('cursor', 'sort'), ['cursor', { text: world.cursors[op.operationId] as string }]] };
  }
};
