import type { z } from 'zod';
import type { ErrorDetail } from './api-error.ts';

/** An error answer lists at most this many problems, each field name and message cut to a bounded length. */
export const MAX_ERROR_DETAILS = 25;
const MAX_FIELD_LENGTH = 128;
const MAX_MESSAGE_LENGTH = 300;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Turns zod issues into `details` entries a partner can act on, one per field: every problem of the request at once,
 * up to MAX_ERROR_DETAILS, then one entry saying how many more there are. So an answer's size is bounded whatever the
 * request (100,000 unknown fields answer 26 entries, not 100,000).
 */
export const zodIssuesToDetails = (issues: z.core.$ZodIssue[], prefix?: string): ErrorDetail[] => {
  const details: ErrorDetail[] = [];
  let more = 0;
  const add = (field: string, message: string) => {
    if (details.length < MAX_ERROR_DETAILS) {
      details.push({ field: cut(field, MAX_FIELD_LENGTH), message: cut(message, MAX_MESSAGE_LENGTH) });
    } else more += 1;
  };
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      const room = Math.max(0, MAX_ERROR_DETAILS - details.length);
      for (const key of issue.keys.slice(0, room)) add(base ? `${base}.${key}` : key, 'is not a known field');
      more += Math.max(0, issue.keys.length - room);
      continue;
    }
    const message =
      issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message.replace(/^Invalid input: /, '');
    add(base || (prefix ?? 'body'), message);
  }
  if (more > 0) {
    details.push({ field: prefix ?? 'body', message: `and ${more} more problems (the first ${MAX_ERROR_DETAILS} are listed)` });
  }
  return details;
};
