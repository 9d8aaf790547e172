import { withStringPolicy } from '@credit/contract';
import { z } from 'zod';
import { validationError } from '../core/api-error.ts';
import { zodIssuesToDetails } from '../core/zod-details.ts';

// Every part of every request is parsed through the contract's string policy (no control characters, no
// unpaired surrogates), so each field, present or future, inherits it. One wrapper per schema, built once.
const withPolicy = new WeakMap<z.ZodType, z.ZodType>();
const policed = (schema: z.ZodType): z.ZodType => {
  let wrapped = withPolicy.get(schema);
  if (!wrapped) {
    wrapped = withStringPolicy(schema);
    withPolicy.set(schema, wrapped);
  }
  return wrapped;
};
// Built once: a route without params, query or body still refuses any it is sent.
const NO_INPUT = z.strictObject({});

/** The parsed `input`, or the 400 naming each field that breaks `schema` (under `where`, except for a body). */
export const parsePart = (schema: z.ZodType | undefined, input: unknown, where: string): unknown => {
  const result = policed(schema ?? NO_INPUT).safeParse(input ?? {});
  if (!result.success) {
    throw validationError(zodIssuesToDetails(result.error.issues, where === 'body' ? undefined : where));
  }
  return result.data;
};

/**
 * Path and query schemas are pure (strings, numbers, enums and their defaults: nothing reads the time or the
 * request), and the same input comes back request after request (an app polling its user's score, with no query
 * string). So a successful parse of an input with at most one field is remembered per schema and answered as a
 * fresh shallow copy (a handler may change its own object); failures are never remembered, so every error answer
 * is the parse's own. Only results whose values are all primitives are kept, so no copy shares an object.
 */
const MEMO_LIMIT = 1024;
const memos = new WeakMap<z.ZodType, Map<string, Record<string, unknown>>>();

export const parseInput = (schema: z.ZodType | undefined, input: Record<string, unknown>, where: string): unknown => {
  const key = inputKey(input);
  if (key === undefined) return parsePart(schema, input, where);
  const effective = schema ?? NO_INPUT;
  let memo = memos.get(effective);
  if (!memo) {
    memo = new Map();
    memos.set(effective, memo);
  }
  const known = memo.get(key);
  if (known) return { ...known };
  const data = parsePart(effective, input, where);
  if (isFlat(data)) {
    // Bounded: a caller cycling through ids only empties it, and parses as before.
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, { ...data });
  }
  return data;
};

/** `''` for no field, `name=value` for one string field (names come from the route's template: no `=`). */
const inputKey = (input: Record<string, unknown>): string | undefined => {
  let key = '';
  let fields = 0;
  for (const name in input) {
    const value = input[name];
    if (++fields > 1 || typeof value !== 'string' || name.includes('=')) return undefined;
    key = `${name}=${value}`;
  }
  return key;
};

const isFlat = (data: unknown): data is Record<string, unknown> => {
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype) return false;
  for (const name in data) {
    const value = (data as Record<string, unknown>)[name];
    if (typeof value === 'object' && value !== null) return false;
    if (typeof value === 'function') return false;
  }
  return true;
};
