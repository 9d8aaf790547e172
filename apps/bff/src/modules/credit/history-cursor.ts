import { type CursorCodec, invalidCursor } from '../../core/cursor.ts';

/** A history cursor: the position (row sequence), valid only for the user and `months` window it was made for. */
const listName = (userId: string, months: number) => `score-history:${userId}:${months}`;

export const encodeHistoryCursor = (cursors: CursorCodec, userId: string, months: number, seq: string): string =>
  cursors.encode(listName(userId, months), { q: seq });

export const decodeHistoryCursor = (cursors: CursorCodec, userId: string, months: number, cursor: string): string => {
  const payload = cursors.decode(listName(userId, months), cursor) as { q?: unknown } | null;
  if (typeof payload?.q !== 'string' || !/^\d{1,18}$/.test(payload.q)) throw invalidCursor();
  return payload.q;
};
