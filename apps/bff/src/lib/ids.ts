import { randomBytes } from 'node:crypto';
import { pooledRandomByte } from './random-pool.ts';
import { ALPHABET, randomTokens } from './random-tokens.ts';

/** Base62 random text; 22 characters carry ~131 bits. Drawn fresh from the CSPRNG: use it for secrets. */
export const randomToken = (length = 22): string => {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i] as number;
    // Rejection sampling keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out.length === length ? out : randomToken(length);
};

/** Base62 random text from the pooled CSPRNG bytes (lib/random-pool.ts): for ids, which are not secret once made. */
const pooledToken = (length: number): string => {
  let out = '';
  while (out.length < length) {
    const byte = pooledRandomByte();
    // Rejection sampling keeps every character equally likely.
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
};

/** Makes resource ids such as `usr_…`; injected so tests can predict them when they need to. */
export interface IdGenerator {
  id(prefix: string): string;
  /** `count` ids at once, where the generator can make them cheaper together (one draw of random bytes). */
  many?(prefix: string, count: number): string[];
}

export const randomIds: IdGenerator = {
  id: (prefix) => `${prefix}_${pooledToken(20)}`,
  many: (prefix, count) => randomTokens(count, 20).map((token) => `${prefix}_${token}`),
};

/** `count` ids from `ids`, together where it can. */
export const manyIds = (ids: IdGenerator, prefix: string, count: number): string[] =>
  ids.many ? ids.many(prefix, count) : Array.from({ length: count }, () => ids.id(prefix));
