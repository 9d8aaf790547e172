import fc from 'fast-check';

/**
 * What a hostile or careless client sends. Each catalogue is a list of constants on purpose: the shapes
 * that broke the API before (issue 11) stay in the fuzz for good, and random generation adds the rest.
 */

/** Strings DECISIONS.md says are refused wherever they appear (C0 controls, lone surrogates). */
export const REFUSED_STRINGS = ['a\u0000b', '\u0000', 'a\ud800', '\udc00z', 'bell\u0007', 'esc\u001b[31m', 'a\ud800b\u0000'];

/** Strings that are odd but allowed: the server must treat them as data, never crash on them. */
export const ODD_STRINGS = [
  '',
  ' ',
  'fé',
  '🙂',
  '\u202eevil',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '__proto__',
  'x'.repeat(10_000),
];

/** Whether a value holds a character DECISIONS.md refuses (any C0 but tab and newline, or a lone surrogate). */
export const hasRefusedCharacter = (value: string): boolean =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f]/.test(value) ||
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

/** Hostile replacements for a leaf of any type: the wrong type, huge numbers, deep nesting. */
const nested = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
};

/**
 * A body sent exactly as written. Nesting deep enough to have overflowed the server's walks (20,000 bytes of
 * `[[[[…`) is deeper than JSON.stringify can build here, so it travels as text; it prints as its size.
 */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): string {
    return `<${this.text.length} bytes of raw JSON: ${this.text.slice(0, 12)}…>`;
  }
}
/** Arrays (`[[[…]]]`) or objects (`{"a":{"a":…}}`) nested `depth` levels: the contract refuses more than 32. */
export const deeplyNested = (depth: number, shape: 'arrays' | 'objects'): RawJson =>
  new RawJson(shape === 'arrays' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
/** Just past the bound, and the bodies that once answered 500. */
export const DEEP_BODIES: RawJson[] = [
  deeplyNested(33, 'arrays'),
  deeplyNested(33, 'objects'),
  deeplyNested(10_000, 'arrays'),
  deeplyNested(4_000, 'objects'),
];

/**
 * Bodies whose error answer would dwarf them if every problem were listed: 20,000 unknown fields (under the 1 MB
 * limit, a few KB gzipped), and one object just past the 100 fields any object may have.
 */
const manyFields = (count: number) => new RawJson(`{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`);
export const AMPLIFYING_BODIES: RawJson[] = [manyFields(20_000), manyFields(101)];

export const WRONG_TYPES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  ['a'],
  {},
  { $gt: '' },
  nested(64),
  '0',
  'true',
];

/** The leaves of a JSON value, each as its key path (`['address', 'city']`, `['users', '0', 'firstName']`). */
export const leafPaths = (value: unknown, prefix: string[] = []): string[][] => {
  if (value && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    return entries.flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
  }
  return prefix.length ? [prefix] : [];
};

export const getAt = (root: unknown, path: string[]): unknown =>
  path.reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);

const setAt = (root: unknown, path: string[], update: (old: unknown) => unknown): unknown => {
  const copy = structuredClone(root) as Record<string, unknown>;
  const parent = getAt(copy, path.slice(0, -1)) as Record<string, unknown>;
  const last = path.at(-1) as string;
  parent[last] = update(parent[last]);
  return copy;
};

export type BodyMutation =
  | { kind: 'none' }
  /** Replaces a string leaf, or appends to it (keeps a URL a URL, so the suffix is what gets judged). */
  | { kind: 'string'; pick: number; value: string; append: boolean }
  | { kind: 'type'; pick: number; value: unknown }
  | { kind: 'unknown-field'; name: string; value: unknown }
  | { kind: 'whole'; value: unknown };

export interface MutatedBody {
  body: unknown;
  /** Where a refused string went (dotted path), when one did: the server must not accept it. */
  refusedAt?: string;
  mutation: BodyMutation;
}

export const mutateBody = (body: unknown, mutation: BodyMutation): MutatedBody => {
  const leaves = leafPaths(body);
  switch (mutation.kind) {
    case 'none':
      return { body, mutation };
    case 'string': {
      const strings = leaves.filter((path) => typeof getAt(body, path) === 'string');
      const pool = strings.length ? strings : leaves;
      const path = pool[mutation.pick % (pool.length || 1)];
      const refused = hasRefusedCharacter(mutation.value);
      if (!path) return { body: mutation.value, mutation, refusedAt: refused ? '' : undefined };
      const mutated = setAt(body, path, (old) =>
        mutation.append && typeof old === 'string' ? old + mutation.value : mutation.value,
      );
      return { body: mutated, mutation, refusedAt: refused ? path.join('.') : undefined };
    }
    case 'type': {
      const path = leaves[mutation.pick % (leaves.length || 1)];
      return { body: path ? setAt(body, path, () => mutation.value) : mutation.value, mutation };
    }
    case 'unknown-field':
      // Never `refusedAt`: a strict body refuses the field anyway, and RFC 6749 §3.2 has the token
      // endpoint ignore parameters it does not know, whatever they hold.
      return {
        body: body && typeof body === 'object' && !Array.isArray(body) ? { ...body, [mutation.name]: mutation.value } : body,
        mutation,
      };
    case 'whole':
      return { body: mutation.value, mutation };
  }
};

const anyString = fc.oneof(
  { arbitrary: fc.constantFrom(...REFUSED_STRINGS), weight: 4 },
  { arbitrary: fc.constantFrom(...ODD_STRINGS), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 12 }), weight: 1 },
);

export const bodyMutationArbitrary: fc.Arbitrary<BodyMutation> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'none' as const }), weight: 2 },
  {
    arbitrary: fc.record({ kind: fc.constant('string' as const), pick: fc.nat(), value: anyString, append: fc.boolean() }),
    weight: 10,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('type' as const), pick: fc.nat(), value: fc.constantFrom(...WRONG_TYPES) }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('unknown-field' as const),
      name: fc.constantFrom('extra', '__proto__', 'constructor', 'a\u0000b', 'userId', 'clientId', 'status'),
      value: fc.oneof(fc.constantFrom(...REFUSED_STRINGS), fc.constantFrom(...WRONG_TYPES)),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('whole' as const),
      value: fc.constantFrom<unknown>(null, [], [{}], 'a\u0000b', 42, nested(2000), { a: nested(200) }, ...DEEP_BODIES),
    }),
    weight: 1,
  },
);

/** Raw path segments, sent exactly as written: malformed percent-encoding must reach the server unaltered. */
export const hostilePathSegments = (prefix: string): string[] => [
  '%E0%A4%A',
  '%ZZ',
  // The first three are what every parameter gets in the fixed examples (fuzz-examples.ts).
  `${prefix}_does_not_exist`,
  '%',
  `${prefix}_%E0%A4%A`,
  `${prefix}_abcdefgh%ZZ`,
  `${prefix}_abcd%00efgh`,
  '%00',
  // U+D800 as UTF-8 bytes (WTF-8): decodeURIComponent refuses it.
  `${prefix}_abcdefgh%ED%A0%80`,
  // Overlong UTF-8 for "/".
  `${prefix}_abcdefgh%C0%AF`,
  `${prefix}_${'A'.repeat(5000)}`,
  `${prefix}_abcdefgh%2F..`,
  `${prefix}_%F0%9F%99%82`,
  `${prefix}_`,
  prefix,
  `${prefix.toUpperCase()}_abcdefghij`,
  'x_abcdefghij',
  '..',
  '%2e%2e',
  'null',
  // Not '': `/v1/users/` is another route (the list), so it would not test this operation at all.
];
