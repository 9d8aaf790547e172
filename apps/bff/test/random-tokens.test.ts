import { describe, expect, it } from 'vitest';
import { manyIds, randomIds } from '../src/lib/ids.ts';
import { randomTokens } from '../src/lib/random-tokens.ts';

describe('random tokens made together (the audit chainer’s ids)', () => {
  it('gives each token its length in base62, all different, every character about equally often', () => {
    const tokens = randomTokens(20_000, 20);
    expect(tokens).toHaveLength(20_000);
    expect(tokens.every((token) => /^[A-Za-z0-9]{20}$/.test(token))).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    const counts = new Map<string, number>();
    for (const token of tokens) for (const char of token) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 400,000 characters over 62: about 6,452 each; a bias such as `byte % 62` without rejection shows as ±20 %.
    for (const count of counts.values()) expect(Math.abs(count / (400_000 / 62) - 1)).toBeLessThan(0.06);
  });

  it('makes prefixed ids together with the random generator, one by one with any other', () => {
    expect(manyIds(randomIds, 'aud', 3).every((id) => /^aud_[A-Za-z0-9]{20}$/.test(id))).toBe(true);
    let n = 0;
    expect(manyIds({ id: (prefix) => `${prefix}_${++n}` }, 'aud', 3)).toEqual(['aud_1', 'aud_2', 'aud_3']);
  });
});
