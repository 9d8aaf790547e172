import { z } from './zod.ts';

/**
 * The one rule for every string a request carries (body, query and path alike): no C0 control
 * characters (U+0000–U+001F) and no unpaired UTF-16 surrogates. PostgreSQL cannot store NUL in text or
 * jsonb, nor a lone surrogate in jsonb, and no partner field needs either. Free-text fields (marked with
 * `freeText()`) may also hold tab, line feed and carriage return.
 *
 * The rule is applied to each operation's input as a whole (`withStringPolicy`), not field by field, so a
 * new field, a new operation, an unknown key or a value inside an open object inherits it without anyone
 * remembering to. The OpenAPI document states the control-character half on every request string as a `pattern`
 * (see `openapi-string-policy.ts`); the surrogate half is in its prose only (see `LONE_SURROGATE`).
 */

// Written as regex source (`\u0000` escapes, not raw characters) so the same text reads in JSON and any regex dialect.
// No surrogate code points: validators outside JavaScript (Rust's, Python's) refuse them in a pattern, and for a
// well-formed string these classes mean the same with or without the `u` flag.
const LINE_CHAR = String.raw`[^\u0000-\u001F]`;
const FREE_TEXT_CHAR = String.raw`[^\u0000-\u0008\u000B\u000C\u000E-\u001F]`;

/** `pattern` of a single-line request string: no control characters. */
export const SAFE_LINE_PATTERN = `^${LINE_CHAR}*$`;
/** `pattern` of a free-text request string: as a line, but tab, LF and CR are allowed. */
export const SAFE_FREE_TEXT_PATTERN = `^${FREE_TEXT_CHAR}*$`;
/** Builds a prefix-anchored pattern that also keeps the string policy (ids: `^usr_…`). */
export const safePatternWithPrefix = (prefix: string) => `^${prefix}${LINE_CHAR}*$`;

export const UNSAFE_CHARACTER_MESSAGE = 'must not contain control characters (such as NUL)';
export const UNPAIRED_SURROGATE_MESSAGE = 'must be valid Unicode: it contains an unpaired UTF-16 surrogate';
const UNSAFE_KEY_MESSAGE = 'has a field name with control characters or unpaired surrogates';

const FREE_TEXT_KEY = 'x-free-text';

/** A string where tab and line breaks are part of the value (a note, a message); every other field is single-line. */
export const freeText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .meta({ [FREE_TEXT_KEY]: true });

// The control-character check is the documented pattern itself, so the server and the document cannot disagree.
const SAFE_LINE = new RegExp(SAFE_LINE_PATTERN);
const SAFE_FREE_TEXT = new RegExp(SAFE_FREE_TEXT_PATTERN);
/**
 * A surrogate code unit that is not half of a pair: with the `u` flag a pair reads as one code point outside the
 * category. Checked here rather than in the documented pattern, which could only name it with surrogate escapes.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why `value` breaks the string policy, or undefined when it does not. */
export const stringPolicyProblem = (value: string, allowLineBreaks = false): string | undefined => {
  if (!(allowLineBreaks ? SAFE_FREE_TEXT : SAFE_LINE).test(value)) return UNSAFE_CHARACTER_MESSAGE;
  if (LONE_SURROGATE.test(value)) return UNPAIRED_SURROGATE_MESSAGE;
  return undefined;
};

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** Dotted paths (`*` for an array index) of the free-text fields of a schema, through wrappers and unions. */
const freeTextPaths = (schema: z.ZodType, prefix = '', into = new Set<string>(), seen = new Set<unknown>()): Set<string> => {
  if (seen.has(schema)) return into;
  seen.add(schema);
  if ((z.globalRegistry.get(schema) as Record<string, unknown> | undefined)?.[FREE_TEXT_KEY]) into.add(prefix);
  const def = defOf(schema);
  const child = (next: unknown, path = prefix) => freeTextPaths(next as z.ZodType, path, into, seen);
  switch (def.type) {
    case 'object':
      for (const [key, value] of Object.entries(def.shape as Record<string, unknown>))
        child(value, prefix ? `${prefix}.${key}` : key);
      break;
    case 'array':
      child(def.element, prefix ? `${prefix}.*` : '*');
      break;
    case 'union':
      for (const option of def.options as unknown[]) child(option);
      break;
    case 'pipe':
      child(def.in);
      child(def.out);
      break;
    case 'lazy':
      child((def.getter as () => unknown)());
      break;
    default:
      if ('innerType' in def) child(def.innerType);
  }
  return into;
};

interface Problem {
  path: (string | number)[];
  message: string;
}

/** Every string (and object key) of a parsed JSON, form or query value that breaks the policy. */
const findProblems = (value: unknown, freeText: Set<string>, path: (string | number)[] = [], out: Problem[] = []) => {
  if (typeof value === 'string') {
    const generic = path.map((p) => (typeof p === 'number' ? '*' : p)).join('.');
    const message = stringPolicyProblem(value, freeText.has(generic));
    if (message) out.push({ path, message });
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) findProblems(item, freeText, [...path, index], out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (stringPolicyProblem(key)) out.push({ path, message: UNSAFE_KEY_MESSAGE });
      else findProblems(item, freeText, [...path, key], out);
    }
  }
  return out;
};

/**
 * How deep arrays and objects may nest in a request body. No operation's input goes past 4 levels; the bound keeps
 * every walk over a parsed body (the string policy's, zod's, the idempotency fingerprint's) far from the call
 * stack's limit, which 20,000 bytes of `[[[[…` reached.
 */
export const MAX_NESTING_DEPTH = 32;
export const TOO_DEEP_MESSAGE = `must not nest arrays and objects more than ${MAX_NESTING_DEPTH} levels deep`;

/** Whether `value` nests arrays and objects more than `max` levels deep (`[]` is one level). Walks without recursion. */
export const nestsDeeperThan = (value: unknown, max = MAX_NESTING_DEPTH): boolean => {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
};

/**
 * `schema`, preceded by the nesting bound and then the string policy over the raw input: a value that breaks it is refused with one
 * issue per offending field, before any other rule runs (so a NUL never reaches a message, a log or the database).
 */
export const withStringPolicy = <T extends z.ZodType>(schema: T) => {
  const freeText = freeTextPaths(schema);
  return z
    .unknown()
    .check((ctx) => {
      // First, and alone: every later step walks the value recursively.
      if (nestsDeeperThan(ctx.value)) {
        ctx.issues.push({ code: 'custom', input: ctx.value, path: [], message: TOO_DEEP_MESSAGE });
        return;
      }
      for (const problem of findProblems(ctx.value, freeText)) {
        ctx.issues.push({ code: 'custom', input: ctx.value, path: problem.path, message: problem.message });
      }
    })
    .pipe(schema);
};
