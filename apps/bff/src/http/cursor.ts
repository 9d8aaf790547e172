import { CursorCodec } from '../core/cursor.ts';
import type { TokenHasher } from '../security/token-hasher.ts';

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
