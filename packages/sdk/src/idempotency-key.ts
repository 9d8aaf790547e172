/** A random key for `Idempotency-Key`, from WebCrypto (Node 20+, every browser). */
export const newIdempotencyKey = (): string => {
  const crypto = globalThis.crypto;
  // randomUUID exists only in secure contexts; getRandomValues everywhere.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
};
