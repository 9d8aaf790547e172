import { describe, expect, it } from 'vitest';
import {
  ALL_OPERATIONS,
  buildOpenApiDocument,
  documentedErrors,
  freeText,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  SAFE_LINE_PATTERN,
  stringPolicyProblem,
  UNPAIRED_SURROGATE_MESSAGE,
  UNSAFE_CHARACTER_MESSAGE,
  withStringPolicy,
} from '../src/index.ts';
import { z } from '../src/zod.ts';

type Json = Record<string, any>;
const document = buildOpenApiDocument() as unknown as Json;
const operationOf = (op: { method: string; path: string }) => document.paths[op.path][op.method] as Json;
const codesAt = (op: { method: string; path: string }, status: number) =>
  String(operationOf(op).responses[String(status)]?.description ?? '');

describe('documented errors follow the operation’s flags', () => {
  it.each(ALL_OPERATIONS.filter((op) => op.idempotent).map((op) => [op.operationId, op]))(
    '%s honours Idempotency-Key, so documents 409 IDEMPOTENCY_CONFLICT',
    (_, op) => {
      expect(documentedErrors(op)).toContain('IDEMPOTENCY_CONFLICT');
      expect(codesAt(op, 409)).toContain('`IDEMPOTENCY_CONFLICT`');
    },
  );

  it('covers the three that missed it', () => {
    for (const id of ['createUserToken', 'sandboxCreateAlert', 'sandboxConvertOffer']) {
      const op = ALL_OPERATIONS.find((o) => o.operationId === id);
      expect(op && codesAt(op, 409), id).toContain('`IDEMPOTENCY_CONFLICT`');
    }
  });

  it.each(ALL_OPERATIONS.filter((op) => op.request.params || op.sandboxOnly).map((op) => [op.operationId, op]))(
    '%s has a path id or is sandbox-only, so documents 404 NOT_FOUND',
    (_, op) => {
      expect(codesAt(op, 404)).toContain('`NOT_FOUND`');
    },
  );

  it.each(ALL_OPERATIONS.map((op) => [op.operationId, op]))('%s documents 429 with Retry-After', (_, op) => {
    expect(operationOf(op).responses['429'].headers['Retry-After']).toBeDefined();
  });

  it.each(ALL_OPERATIONS.filter((op) => op.auth.kind === 'bearer').map((op) => [op.operationId, op]))(
    '%s documents WWW-Authenticate on its 401',
    (_, op) => {
      expect(operationOf(op).responses['401'].headers['WWW-Authenticate']).toBeDefined();
    },
  );

  it('documents exactly the derived codes, no more', () => {
    for (const op of ALL_OPERATIONS.filter((o) => o.auth.kind === 'bearer')) {
      const named = Object.values(operationOf(op).responses as Record<string, { description: string }>)
        .flatMap((response) => [...response.description.matchAll(/\[`([A-Z_]+)`\]\(\/docs\/errors#\1\): /g)].map((m) => m[1]))
        .sort();
      expect(named, op.operationId).toEqual([...documentedErrors(op)].sort());
    }
  });
});

/** Every string schema a request can carry, found through `$ref`s, with where it was found. */
const requestStrings = (): { where: string; schema: Json }[] => {
  const found: { where: string; schema: Json }[] = [];
  const seen = new Set<unknown>();
  const visit = (schema: Json | undefined, where: string) => {
    if (!schema || seen.has(schema)) return;
    seen.add(schema);
    if (schema.$ref) visit(document.components.schemas[schema.$ref.split('/').pop()], where);
    if (schema.type === 'string') found.push({ where, schema });
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Json)) visit(child, `${where}.${key}`);
    visit(schema.items, `${where}[]`);
    for (const child of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) visit(child, where);
  };
  for (const op of ALL_OPERATIONS) {
    const operation = operationOf(op);
    for (const p of operation.parameters ?? []) if (p.in !== 'header') visit(p.schema, `${op.operationId} ${p.in}.${p.name}`);
    for (const media of Object.values((operation.requestBody?.content ?? {}) as Json))
      visit(media.schema, `${op.operationId} body`);
  }
  return found;
};

describe('the string policy, stated in the document', () => {
  const strings = requestStrings();

  it('finds the request strings', () => {
    expect(strings.length).toBeGreaterThan(30);
  });

  it('gives every request string a pattern (or a closed set of values)', () => {
    const without = strings.filter(({ schema }) => !schema.pattern && !schema.enum && schema.const === undefined);
    expect(without.map((s) => s.where)).toEqual([]);
  });

  it('has patterns that refuse a NUL and other control characters inside an otherwise valid example', () => {
    for (const { where, schema } of strings.filter((s) => s.schema.pattern && typeof s.schema.example === 'string')) {
      const pattern = new RegExp(schema.pattern, 'u');
      const example = schema.example as string;
      expect(pattern.test(example), `${where} example`).toBe(true);
      const middle = Math.ceil(example.length / 2);
      for (const bad of ['\u0000', '\u001f']) {
        const value = `${example.slice(0, middle)}${bad}${example.slice(middle)}`;
        expect(pattern.test(value), `${where} with ${JSON.stringify(bad)}`).toBe(false);
      }
    }
  });

  it('writes every pattern without surrogate code points, as a Unicode-sets expression', () => {
    // Rust's and Python's validators refuse a surrogate in a pattern and drop the whole rule.
    const patterns = JSON.stringify(document).match(/"pattern":"(?:[^"\\]|\\.)*"/g) ?? [];
    expect(patterns.length).toBeGreaterThan(100);
    for (const written of patterns) {
      const pattern = JSON.parse(`{${written}}`).pattern as string;
      expect(pattern, 'no surrogate escape').not.toMatch(/\\u\{?0*d[89a-f]/i);
      expect(() => new RegExp(pattern, 'v'), pattern).not.toThrow();
    }
  });

  it('matches the server’s check on well-formed strings; the server alone refuses lone surrogates', () => {
    const pattern = new RegExp(SAFE_LINE_PATTERN, 'u');
    for (const value of ['plain', 'Zoë 😀', '', '\u007f is not C0', 'a\u0000', 'tab\t', '\u001f']) {
      expect(pattern.test(value), JSON.stringify(value)).toBe(stringPolicyProblem(value) === undefined);
    }
    for (const value of ['x\udc00', '\ud83d', 'a\ud800b', '\udc00\ud800']) {
      expect(stringPolicyProblem(value), JSON.stringify(value)).toBe(UNPAIRED_SURROGATE_MESSAGE);
    }
    expect(stringPolicyProblem('\ud800\u0000'), 'a control character is named first').toBe(UNSAFE_CHARACTER_MESSAGE);
  });
});

describe('the headers and formats, stated in the document', () => {
  it.each(ALL_OPERATIONS.filter((op) => op.idempotent).map((op) => [op.operationId, op]))(
    '%s documents the Idempotency-Key rules the server applies',
    (_, op) => {
      const header = (operationOf(op).parameters as Json[]).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(header?.schema).toMatchObject({ type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH });
      const pattern = new RegExp(header?.schema.pattern, 'v');
      expect(['retry-1', 'k'.repeat(255), 'é'].every((key) => pattern.test(key))).toBe(true);
      expect(['a\u0000b', 'a\tb', '\u001f'].some((key) => pattern.test(key))).toBe(false);
      expect(header?.description).toMatch(/1–255 characters, with no control characters/);
    },
  );

  it('documents an IP address with the formats JSON Schema defines', () => {
    const ipAddress = document.components.schemas.EnrollmentConsent.properties.ipAddress;
    expect(ipAddress.anyOf.map((option: Json) => option.format)).toEqual(['ipv4', 'ipv6']);
  });
});

describe('withStringPolicy', () => {
  const schema = z.strictObject({
    name: z.string(),
    note: freeText(500).optional(),
    tags: z.array(z.string()).optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
  });
  const issues = (input: unknown) =>
    withStringPolicy(schema)
      .safeParse(input)
      .error?.issues.map((i) => [i.path.join('.'), i.message]);

  it('names each offending field, in arrays and open objects too', () => {
    expect(issues({ name: 'a\u0000', tags: ['ok', '\ud800'], extra: { deep: { list: ['\u0001'] } } })).toEqual([
      ['name', 'must not contain control characters (such as NUL)'],
      ['tags.1', 'must be valid Unicode: it contains an unpaired UTF-16 surrogate'],
      ['extra.deep.list.0', 'must not contain control characters (such as NUL)'],
    ]);
  });

  it('allows tab and line breaks in free text only', () => {
    expect(issues({ name: 'x', note: 'line one\r\n\tline two' })).toBeUndefined();
    expect(issues({ name: 'line one\nline two' })).toEqual([['name', 'must not contain control characters (such as NUL)']]);
    expect(issues({ name: 'x', note: 'bell\u0007' })).toEqual([['note', 'must not contain control characters (such as NUL)']]);
  });

  it('refuses a field name with control characters before the schema sees it', () => {
    expect(issues({ name: 'x', 'bad\u0000key': 1 })).toEqual([
      ['', 'has a field name with control characters or unpaired surrogates'],
    ]);
  });

  it('runs the schema’s own rules once the strings are clean', () => {
    expect(issues({ name: 1 })?.[0]?.[0]).toBe('name');
  });
});
