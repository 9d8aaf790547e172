/** Murmur3's 32-bit finaliser: spreads neighbouring inputs (month 7, month 8) over unrelated states. */
const mix32 = (value: number): number => {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
};

/**
 * Labels of streams over the report key (BaseFile.reportKey) that are not a calendar month's: far from any month the
 * sandbox replays, whose labels name the streams of the accounts monthly events open.
 */
export const REPORT_STREAMS = { baseFile: -1_000_001, softInquiries: -1_000_002 } as const;

/**
 * The random stream of one identity's one calendar month (mulberry32 over integer arithmetic, so every machine
 * draws the same numbers). SHA-256 per month would cost microseconds each, and a file replays every month
 * since the anchor on every pull; this costs nanoseconds. Seeded from the identity's SHA-256-derived key, so
 * months and identities stay unrelated.
 */
export class MonthStream {
  #state: number;

  constructor(identityKey: number, month: number) {
    this.#state = mix32(identityKey ^ mix32(Math.imul(month | 0, 0x9e3779b1) + 0x7f4a7c15));
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) | 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Centred noise in about [-spread, spread], most of it near 0. */
  noise(spread: number): number {
    return (this.next() + this.next() + this.next() - 1.5) * (spread / 1.5);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }
}
