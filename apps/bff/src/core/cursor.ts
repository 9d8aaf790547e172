import { timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TokenHasher } from '../security/token-hasher.ts';
import { validationError } from './api-error.ts';

const SIGNATURE_CHARS = 32;
const MAX_PAYLOAD_CHARS = 4096;
const ISSUED_MEMO_SIZE = 10_000;

/** The 400 every list answers for a cursor it did not issue, or issued for other filters. */
export const invalidCursor = () =>
  validationError([{ field: 'cursor', message: 'is not a cursor issued by this list with these filters' }]);

/**
 * The one cursor codec of every list (users, webhooks, webhook logs, alerts, offers, score history).
 * A cursor is `<base64url JSON>.<signature>`: an HMAC under the token-signing keys of the list it was
 * issued for (its name and the filters that shape its order) and the payload. So a cursor is opaque and
 * tamper-evident: an edited, forged or foreign one is a 400 on `cursor` before any value of it reaches SQL,
 * and what it carries can be trusted to be a position we wrote. Any key still accepted for tokens also
 * verifies cursors, so a key rotation does not break paging.
 */
export class CursorCodec {
  readonly #tokens: TokenHasher;
  /**
   * Cursors issued lately, by what they sign: a cursor is a pure function of its list, its payload and the keys,
   * and a first page asked again (a dashboard's refresh) issues the same next-page cursor, an HMAC each time.
   * Nothing secret is kept: these cursors went out in answers.
   */
  readonly #issued = new LRUCache<string, string>({ max: ISSUED_MEMO_SIZE });
  constructor(tokens: TokenHasher) {
    this.#tokens = tokens;
  }

  encode(list: string, payload: unknown): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const signed = this.#signed(list, body);
    let cursor = this.#issued.get(signed);
    if (cursor === undefined) {
      cursor = `${body}.${this.#tokens.hash(signed).slice(0, SIGNATURE_CHARS)}`;
      this.#issued.set(signed, cursor);
    }
    return cursor;
  }

  /** The payload of a cursor this codec issued for `list`; a 400 on `cursor` otherwise. */
  decode(list: string, cursor: string): unknown {
    const [body, signature, ...rest] = cursor.split('.');
    if (!body || !signature || rest.length > 0 || body.length > MAX_PAYLOAD_CHARS) throw invalidCursor();
    const given = Buffer.from(signature);
    const valid = this.#tokens.candidates(this.#signed(list, body)).some((digest) => {
      const expected = Buffer.from(digest.slice(0, SIGNATURE_CHARS));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!valid) throw invalidCursor();
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
    } catch {
      throw invalidCursor();
    }
  }

  // Domain-separated from token digests, and bound to the list so a cursor of one list never opens another.
  #signed(list: string, body: string): string {
    return `cursor:${list.length}:${list}:${body}`;
  }
}

const codecs = new WeakMap<TokenHasher, CursorCodec>();
/** The codec of an app context (one per set of signing keys). */
export const cursorsOf = (ctx: { tokens: TokenHasher }): CursorCodec => {
  let codec = codecs.get(ctx.tokens);
  if (!codec) {
    codec = new CursorCodec(ctx.tokens);
    codecs.set(ctx.tokens, codec);
  }
  return codec;
};
