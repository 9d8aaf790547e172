import { type CursorCodec, invalidCursor } from '../../core/cursor.ts';

/**
 * The catalogue lives in memory and is small, so a page cursor is an offset into the filtered,
 * ordered list. The shared cursor codec signs it for the list (the catalogue or one user's offers) and its
 * filters: an edited cursor, or one reused with other filters or for another user, is a 400 on `cursor`
 * instead of a silently wrong page.
 */
export interface OfferListKey {
  /** `catalogue`, or the user id whose ranked list this is. */
  list: string;
  type: string | null;
  status: string;
}

const listName = (key: OfferListKey) => `offers:${JSON.stringify([key.list, key.type, key.status])}`;

export const encodeOfferCursor = (cursors: CursorCodec, key: OfferListKey, offset: number): string =>
  cursors.encode(listName(key), { offset });

/** The offset a cursor points at; 400 unless it was issued for exactly this list and these filters. */
export const decodeOfferCursor = (cursors: CursorCodec, cursor: string, key: OfferListKey): number => {
  const payload = cursors.decode(listName(key), cursor) as { offset?: unknown } | null;
  const offset = payload?.offset;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 1) throw invalidCursor();
  return offset;
};
