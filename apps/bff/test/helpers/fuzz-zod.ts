import fc from 'fast-check';
import { z } from 'zod';

/**
 * Arbitraries of (mostly) valid values read off the contract's own zod schemas, so the fuzz follows the
 * contract as it changes instead of restating it. "Mostly": refinements the walker cannot see (a custom
 * `.refine`) may still reject a value, which the fuzz is fine with; the aim is that most requests get
 * past validation and reach the services and the database.
 */

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  options?: z.ZodType[];
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  checks?: { _zod: { def: { check: string; format?: string; pattern?: RegExp } } }[];
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Where a generated string must go: `https://127.0.0.1:9/…` refuses connections at once and passes the address check. */
const WEBHOOK_BASE = 'https://127.0.0.1:9/';

const safeChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.'.split(''));
const safeText = fc.string({ unit: safeChar, minLength: 1, maxLength: 12 });
const dateBetween = (fromYear: number, toYear: number) =>
  fc.date({ min: new Date(Date.UTC(fromYear, 0, 1)), max: new Date(Date.UTC(toYear, 11, 31)), noInvalidDate: true });

type Hint = { example?: unknown; format?: string };
/** The meta of a schema, or of the wrapper (pipe, optional) it sits in: `.meta()` often lands on the wrapper. */
const hintOf = (schema: z.ZodType, outer: Hint): Hint => ({ ...outer, ...(z.globalRegistry.get(schema) as Hint | undefined) });

const stringArbitrary = (schema: z.ZodString, meta: Hint): fc.Arbitrary<string> => {
  const s = schema as unknown as { minLength?: number | null; maxLength?: number | null };
  const format = (defOf(schema) as { format?: string }).format ?? meta.format;
  // A URL example names a real host; resolving it would make the run depend on DNS.
  const examples = typeof meta.example === 'string' && !/^https?:/.test(meta.example) ? [fc.constant(meta.example)] : [];
  const patterns = (defOf(schema).checks ?? [])
    .map((c) => c._zod.def)
    .filter((d) => d.check === 'string_format' && d.format === 'regex' && d.pattern)
    .map((d) => d.pattern as RegExp);
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 40);
  let generated: fc.Arbitrary<string>;
  switch (format) {
    case 'email':
      generated = fc
        .tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,12}[a-z0-9]$/), fc.constantFrom('example.test', 'bank.example'))
        .map(([local, domain]) => `${local.replace(/\.\.+/g, '.')}@${domain}`);
      break;
    case 'url':
    case 'uri':
      // WHATWG-valid but not RFC 3986 as typed (`fé`, upper-case scheme): what the server stores and returns
      // must be the normalised href, which is what `format: uri` promises.
      generated = fc.oneof(
        {
          arbitrary: fc.stringMatching(/^[a-z0-9-]{1,12}(\/[a-z0-9-]{1,12}){0,2}$/).map((path) => `${WEBHOOK_BASE}${path}`),
          weight: 3,
        },
        { arbitrary: fc.constantFrom(`${WEBHOOK_BASE}fé`, `${WEBHOOK_BASE}a b`, 'HTTPS://127.0.0.1:9/Hooks/../x'), weight: 1 },
      );
      break;
    case 'datetime':
      generated = dateBetween(2000, 2035).map((d) => d.toISOString());
      break;
    case 'date':
      // Birth dates and filters alike: adults of 18–90 are valid enrolments.
      generated = dateBetween(1940, 2000).map((d) => d.toISOString().slice(0, 10));
      break;
    default:
      generated = patterns.length
        ? fc.stringMatching(patterns[0] as RegExp).map((v) => v.slice(0, s.maxLength ?? v.length))
        : fc
            .string({ unit: safeChar, minLength: min, maxLength: Math.max(min, max) })
            .map((v) => (v.trim() ? v : `x${v}`.slice(0, max)));
  }
  return fc.oneof({ arbitrary: generated, weight: 3 }, ...examples.map((arbitrary) => ({ arbitrary, weight: 1 })));
};

const numberArbitrary = (schema: z.ZodNumber): fc.Arbitrary<number> => {
  const n = schema as unknown as { minValue?: number | null; maxValue?: number | null; isInt?: boolean };
  // Unbounded ints report the safe-integer range; huge numbers belong to the hostile inputs, not the valid ones.
  const min = Math.max(n.minValue ?? -1000, -1_000_000);
  const max = Math.min(n.maxValue ?? Math.max(min, 0) + 1000, 1_000_000);
  return n.isInt
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
};

/** A valid-looking value for `schema`; `overrides` replaces the arbitrary of a dotted field path (`users`, `address.state`). */
export const zodArbitrary = (
  schema: z.ZodType,
  overrides: Record<string, fc.Arbitrary<unknown>> = {},
  path = '',
  outer: Hint = {},
): fc.Arbitrary<unknown> => {
  const override = overrides[path];
  if (override) return override;
  const def = defOf(schema);
  const hint = hintOf(schema, outer);
  const inner = (child: z.ZodType) => zodArbitrary(child, overrides, path, hint);
  switch (def.type) {
    case 'string':
      return stringArbitrary(schema as z.ZodString, hint);
    case 'number':
      return numberArbitrary(schema as z.ZodNumber);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(inner(def.innerType as z.ZodType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(inner(def.innerType as z.ZodType), { nil: null, freq: 4 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType as z.ZodType);
    case 'pipe':
      return inner(def.in as z.ZodType);
    case 'lazy':
      return inner((def.getter as () => z.ZodType)());
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => zodArbitrary(option, overrides, path)));
    case 'intersection':
      return fc
        .tuple(zodArbitrary(def.left as z.ZodType, overrides, path), zodArbitrary(def.right as z.ZodType, overrides, path))
        .map(([a, b]) => ({ ...(a as object), ...(b as object) }));
    case 'array': {
      const bounds = (def.checks ?? []).map(
        (c) => c._zod.def as { check: string; minimum?: number; maximum?: number; length?: number },
      );
      const exact = bounds.find((b) => b.check === 'length_equals')?.length;
      const minLength = exact ?? bounds.find((b) => b.check === 'min_length')?.minimum ?? 0;
      const maxLength = Math.max(minLength, Math.min(exact ?? bounds.find((b) => b.check === 'max_length')?.maximum ?? 3, 3));
      return fc.array(zodArbitrary(def.element as z.ZodType, overrides, `${path}[]`), { minLength, maxLength });
    }
    case 'record':
      return fc.dictionary(safeText, zodArbitrary(def.valueType as z.ZodType, overrides, `${path}{}`), {
        maxKeys: 3,
      });
    case 'object': {
      const entries = Object.entries(def.shape ?? {}).map(
        ([key, value]) => [key, zodArbitrary(value, overrides, path ? `${path}.${key}` : key)] as const,
      );
      return fc
        .tuple(...entries.map(([, arbitrary]) => arbitrary))
        .map((values) =>
          Object.fromEntries(entries.map(([key], i) => [key, values[i]]).filter(([, value]) => value !== undefined)),
        );
    }
    default:
      // unknown, any and the rest: a small JSON value.
      return fc.jsonValue({ maxDepth: 2 });
  }
};

/** Query values travel as strings: numbers and booleans as their text, arrays as repeated keys. */
export const toQueryPairs = (query: unknown): [string, string][] =>
  Object.entries((query ?? {}) as Record<string, unknown>).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).filter((v) => v !== undefined).map((v) => [key, String(v)] as [string, string]),
  );

/** `usr` for an id schema: from its `^usr_…` pattern, else from its example (`usr_8fQ2…`). */
export const prefixOf = (schema: z.ZodType | undefined): string => {
  if (!schema) return 'x';
  const def = defOf(schema);
  const pattern = def.checks?.map((c) => c._zod.def.pattern?.source).find(Boolean);
  const example = z.globalRegistry.get(schema)?.example;
  const found =
    /^\^(\w+?)_/.exec(pattern ?? '')?.[1] ?? (typeof example === 'string' ? /^([a-z]+)_/.exec(example)?.[1] : undefined);
  if (found) return found;
  const inner = def.innerType ?? def.in;
  return inner ? prefixOf(inner) : 'x';
};
