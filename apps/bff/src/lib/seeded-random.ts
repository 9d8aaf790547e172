import { createHash } from 'node:crypto';

/**
 * A deterministic random stream from a text seed (SHA-256 counter mode). Same seed → same numbers
 * on every machine and Node version, which `Math.random` cannot promise.
 */
export class SeededRandom {
  #block = Buffer.alloc(0);
  #offset = 0;
  #counter = 0;
  constructor(private readonly seed: string) {}

  /** Uniform in [0, 1). */
  next(): number {
    if (this.#offset + 4 > this.#block.length) {
      this.#block = createHash('sha256')
        .update(`${this.seed}:${this.#counter++}`)
        .digest();
      this.#offset = 0;
    }
    const value = this.#block.readUInt32BE(this.#offset);
    this.#offset += 4;
    return value / 2 ** 32;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Roughly normal (sum of uniforms), clipped to [min, max]. */
  bell(mean: number, spread: number, min: number, max: number): number {
    const centred = (this.next() + this.next() + this.next() + this.next() - 2) / 2;
    return Math.min(max, Math.max(min, Math.round(mean + centred * spread * 2)));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count);
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }
}
