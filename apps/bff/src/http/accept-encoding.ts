/** The encodings assets are precompressed in, best first: brotli is smaller, gzip is understood everywhere. */
export const PRECOMPRESSED = ['br', 'gzip'] as const;
export type Precompressed = (typeof PRECOMPRESSED)[number];

/** `x-gzip` is gzip (RFC 9110 §8.4.1.3). */
const ALIASES: Record<string, string> = { 'x-gzip': 'gzip' };

/** `br;q=0.8, gzip, *;q=0` → weight per coding (lower case). Entries that do not parse are ignored. */
const parseAcceptEncoding = (header: string): Map<string, number> => {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [rawName, ...params] = entry.split(';').map((part) => part.trim());
    const name = rawName?.toLowerCase();
    if (!name || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(param);
      if (match) q = Number(match[1]);
      else if (/^q\s*=/i.test(param)) q = Number.NaN;
    }
    if (!Number.isNaN(q)) weights.set(ALIASES[name] ?? name, Math.max(q, weights.get(ALIASES[name] ?? name) ?? 0));
  }
  return weights;
};

/**
 * Which of the `available` encodings to send for this `Accept-Encoding`: the highest weight wins, a tie
 * goes to the better compression (br before gzip), and `identity` is the answer when nothing compressed
 * is acceptable or the client lists identity with a higher weight. No header means identity. Even when a
 * client refuses identity too (`*;q=0`), it gets identity rather than a 406 (RFC 9110 §12.5.3 allows it).
 */
export const chooseEncoding = (header: string | undefined, available: readonly Precompressed[]): Precompressed | 'identity' => {
  if (!header) return 'identity';
  const weights = parseAcceptEncoding(header);
  const wildcard = weights.get('*');
  const weightOf = (coding: string) => weights.get(coding) ?? wildcard ?? 0;
  // Identity is always the fallback; it outranks a compressed coding only when listed with a higher weight.
  const identity = weights.get('identity') ?? 0;
  let best: Precompressed | 'identity' = 'identity';
  let bestWeight = 0;
  for (const coding of PRECOMPRESSED) {
    const weight = weightOf(coding);
    if (available.includes(coding) && weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best !== 'identity' && bestWeight >= identity ? best : 'identity';
};
