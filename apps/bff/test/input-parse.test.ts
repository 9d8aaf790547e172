import { ALL_OPERATIONS } from '@credit/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../src/core/api-error.ts';
import { parseInput } from '../src/http/input-parse.ts';

/** A path schema that counts its parses (a refine runs on every real parse, never on a remembered one). */
const countingSchema = () => {
  const counter = { parses: 0 };
  const schema = z.strictObject({
    userId: z
      .string()
      .max(40)
      .refine(() => {
        counter.parses++;
        return true;
      }),
  });
  return { schema, counter };
};

const errorOf = (run: () => unknown): ApiError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a 400');
};

describe('remembered path and query parses (http/input-parse.ts)', () => {
  it('parses an input once, then answers a fresh copy that a handler may change', () => {
    const { schema, counter } = countingSchema();
    const first = parseInput(schema, { userId: 'usr_1' }, 'path') as { userId: string };
    first.userId = 'changed by a handler';
    const second = parseInput(schema, { userId: 'usr_1' }, 'path');
    expect(second).toEqual({ userId: 'usr_1' });
    expect(second).not.toBe(parseInput(schema, { userId: 'usr_1' }, 'path'));
    expect(counter.parses).toBe(1);
  });

  it('never remembers a failure: each bad input is parsed again and answers its own 400', () => {
    const { schema, counter } = countingSchema();
    const tooLong = 'x'.repeat(41);
    const errors = [1, 2].map(() => errorOf(() => parseInput(schema, { userId: tooLong }, 'path')));
    expect(errors.map((e) => e.code)).toEqual(['VALIDATION_ERROR', 'VALIDATION_ERROR']);
    expect(errors[1]?.details).toEqual(errors[0]?.details);
    expect(counter.parses).toBe(2); // the schema ran on both: nothing was served from memory
    expect(errorOf(() => parseInput(schema, { userId: 'a\u0000b' }, 'path')).code).toBe('VALIDATION_ERROR');
  });

  it('keeps at most 1024 inputs per schema: past that it starts over and parses again', () => {
    const { schema, counter } = countingSchema();
    parseInput(schema, { userId: 'usr_kept' }, 'path');
    parseInput(schema, { userId: 'usr_kept' }, 'path');
    expect(counter.parses).toBe(1);
    for (let i = 0; i < 1024; i++) parseInput(schema, { userId: `usr_${i}` }, 'path');
    parseInput(schema, { userId: 'usr_kept' }, 'path');
    expect(counter.parses).toBe(1 + 1024 + 1);
  });

  it('parses inputs of two fields or non-string values every time', () => {
    const { schema, counter } = countingSchema();
    const two = z.strictObject({ a: z.string(), b: z.string().refine(() => ++counter.parses > 0) });
    parseInput(two, { a: '1', b: '2' }, 'query');
    parseInput(two, { a: '1', b: '2' }, 'query');
    expect(counter.parses).toBe(2);
    expect(() => parseInput(schema, { userId: ['usr_1'] as unknown as string }, 'path')).toThrow(ApiError);
  });

  // The memo is only right for pure schemas: a transform, a refine or a default computed per call (the time, say)
  // would be answered stale. Every contract operation's path and query schema is built from these parts only.
  it('is only used on contract path and query schemas made of pure parts', () => {
    const allowed = new Set(['object', 'string', 'number', 'enum', 'optional', 'default', 'never', 'literal', 'boolean']);
    const allowedChecks = new Set(['string_format', 'number_format', 'greater_than', 'less_than', 'min_length', 'max_length']);
    const impure: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      const def = (schema as { _zod?: { def: Record<string, unknown> & { type: string } } } | undefined)?._zod?.def;
      if (!def) return;
      if (!allowed.has(def.type)) impure.push(`${where}: ${def.type}`);
      for (const check of (def.checks ?? []) as { _zod: { def: { check: string } } }[]) {
        if (!allowedChecks.has(check._zod.def.check)) impure.push(`${where}: check ${check._zod.def.check}`);
      }
      if (def.type === 'default') {
        const [a, b] = [def.defaultValue, def.defaultValue];
        if ((typeof a === 'object' && a !== null) || !Object.is(a, b)) impure.push(`${where}: default ${String(a)}`);
      }
      if (def.type === 'object') for (const [name, field] of Object.entries(def.shape as object)) walk(field, `${where}.${name}`);
      if (def.innerType) walk(def.innerType, where);
      if (def.catchall) walk(def.catchall, where);
    };
    for (const op of ALL_OPERATIONS) {
      walk(op.request.params, `${op.operationId} path`);
      walk(op.request.query, `${op.operationId} query`);
    }
    expect(impure).toEqual([]);
  });
});
