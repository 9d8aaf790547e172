import { validationError } from '../../http/api-error.ts';

/** Opaque history cursor: the position (row sequence) and the `months` window it was made for. */
export const encodeHistoryCursor = (seq: string, months: number): string =>
  Buffer.from(JSON.stringify({ q: seq, m: months })).toString('base64url');

export const decodeHistoryCursor = (cursor: string, months: number): string => {
  try {
    const payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { q?: unknown; m?: unknown };
    if (typeof payload.q === 'string' && /^\d{1,18}$/.test(payload.q) && payload.m === months) return payload.q;
  } catch {
    // fall through to the validation error
  }
  throw validationError([{ field: 'cursor', message: 'is not a cursor from this history with these months' }]);
};
