import { timingSafeEqual } from 'node:crypto';
import { validationError } from '../../http/api-error.ts';
import type { TokenHasher } from '../../security/token-hasher.ts';

/**
 * The catalogue lives in memory and is small, so a page cursor is an offset into the filtered,
 * ordered list. The cursor carries the list it belongs to (the catalogue or one user's offers) and its
 * filters, and is signed with the token-signing key: an edited cursor, or one reused with other
 * filters or for another user, is a 400 on `cursor` instead of a silently wrong page.
 */
export interface OfferListKey {
  /** `catalogue`, or the user id whose ranked list this is. */
  list: string;
  type: string | null;
  status: string;
}

interface CursorPayload extends OfferListKey {
  offset: number;
}

const SIGNATURE_CHARS = 32;
const sign = (tokens: TokenHasher, body: string) => tokens.hash(`offers-cursor:${body}`).slice(0, SIGNATURE_CHARS);

export const encodeOfferCursor = (tokens: TokenHasher, key: OfferListKey, offset: number): string => {
  const body = Buffer.from(JSON.stringify({ ...key, offset } satisfies CursorPayload)).toString('base64url');
  return `${body}.${sign(tokens, body)}`;
};

const invalidCursor = () => validationError([{ field: 'cursor', message: 'is not a cursor from this list with these filters' }]);

/** The offset a cursor points at; 400 unless it was issued for exactly this list and these filters. */
export const decodeOfferCursor = (tokens: TokenHasher, cursor: string, key: OfferListKey): number => {
  const [body, signature, ...rest] = cursor.split('.');
  if (!body || !signature || rest.length > 0) throw invalidCursor();
  // Any key still accepted for tokens also verifies cursors, so a key rotation does not break paging.
  const given = Buffer.from(signature);
  const valid = tokens.candidates(`offers-cursor:${body}`).some((digest) => {
    const expected = Buffer.from(digest.slice(0, SIGNATURE_CHARS));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!valid) throw invalidCursor();
  let payload: Partial<CursorPayload>;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<CursorPayload>;
  } catch {
    throw invalidCursor();
  }
  const sameList = payload.list === key.list && payload.type === key.type && payload.status === key.status;
  if (!sameList || !Number.isInteger(payload.offset) || (payload.offset as number) < 1) throw invalidCursor();
  return payload.offset as number;
};
