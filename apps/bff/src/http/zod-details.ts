import type { z } from 'zod';
import type { ErrorDetail } from '../core/api-error.ts';

/** Turns zod issues into `details` entries a partner can act on, one per field. */
export const zodIssuesToDetails = (issues: z.core.$ZodIssue[], prefix?: string): ErrorDetail[] =>
  issues.flatMap((issue) => {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: base ? `${base}.${key}` : key, message: 'is not a known field' }));
    }
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message.replace(/^Invalid input: /, '');
    return [{ field: base || (prefix ?? 'body'), message }];
  });
