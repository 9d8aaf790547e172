import { describe, expect, it } from 'vitest';
import { manyIds, randomIds } from '../src/lib/ids.ts';
import { pooledRandomBytes } from '../src/lib/random-pool.ts';
import { randomTokens } from '../src/lib/random-tokens.ts';

const charCounts = (tokens: string[]) => {
  const counts = new Map<string, number>();
  for (const token of tokens) for (const char of token) counts.set(char, (counts.get(char) ?? 0) + 1);
  return counts;
};

describe('random tokens made together (the audit chainer’s ids)', () => {
  it('gives each token its length in base62, all different, every character about equally often', () => {
    const tokens = randomTokens(20_000, 20);
    expect(tokens).toHaveLength(20_000);
    expect(tokens.every((token) => /^[A-Za-z0-9]{20}$/.test(token))).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    const counts = charCounts(tokens);
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

describe('pooled random bytes (ids and AES-GCM IVs)', () => {
  it('never hands out the same IV twice across many refills of the pool', () => {
    // 30,000 IVs of 12 bytes draw the 4 KiB pool ~88 times over: a refill that replayed bytes would repeat IVs.
    const ivs = Array.from({ length: 30_000 }, () => pooledRandomBytes(12).toString('hex'));
    expect(new Set(ivs).size).toBe(ivs.length);
  });

  it('gives each caller bytes of its own, which later draws and refills do not change', () => {
    const first = pooledRandomBytes(12);
    const copy = Buffer.from(first);
    for (let i = 0; i < 2_000; i++) pooledRandomBytes(12);
    expect(first.equals(copy)).toBe(true);
    // A draw larger than the pool spans refills, and a refill's bytes are new ones, not the last fill again.
    const large = pooledRandomBytes(10_000);
    expect(large).toHaveLength(10_000);
    expect(large.subarray(0, 4096).equals(large.subarray(4096, 8192))).toBe(false);
  });

  it('makes ids in base62, all different, every character about equally often', () => {
    const ids = Array.from({ length: 20_000 }, () => randomIds.id('usr'));
    expect(ids.every((id) => /^usr_[A-Za-z0-9]{20}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const counts = charCounts(ids.map((id) => id.slice(4)));
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count / (400_000 / 62) - 1)).toBeLessThan(0.06);
  });
});
