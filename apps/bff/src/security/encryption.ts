import { createCipheriv, createDecipheriv } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { pooledRandomBytes } from '../lib/random-pool.ts';
import { keyId } from './keys.ts';

/** A file is at most the bureau's largest answer (1 MB); anything inflating past this is no value we sealed. */
const MAX_INFLATED_BYTES = 8 * 1024 * 1024;

/** v2 binds its format too, so relabelling a value's version fails to decrypt instead of misreading it. */
const associatedData = (version: 'v1' | 'v2', context: string) => Buffer.from(version === 'v2' ? `v2\0${context}` : context);

/**
 * AES-256-GCM for personal data at rest. The associated data binds a ciphertext to its row and
 * column, so a value copied into another user's row fails to decrypt instead of leaking.
 * Format: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts); `v2` when the plaintext was deflated before it was
 * encrypted (`encryptCompressed`, for large documents such as credit files).
 */
export class DataCipher {
  readonly #keys: Map<string, Buffer>;
  readonly #current: { id: string; key: Buffer };
  readonly #deflate: boolean;

  /** `deflate: false` seals what `encryptCompressed` is given as v1, for instances that read only v1. */
  constructor(keys: Buffer[], { deflate = true }: { deflate?: boolean } = {}) {
    this.#deflate = deflate;
    const [first] = keys;
    if (!first) throw new Error('DataCipher needs at least one key');
    this.#keys = new Map(keys.map((key) => [keyId(key), key.subarray(0, 32)]));
    this.#current = { id: keyId(first), key: first.subarray(0, 32) };
  }

  encrypt(plaintext: string, context: string): string {
    return this.#seal('v1', Buffer.from(plaintext, 'utf8'), context);
  }

  /**
   * Deflates, then encrypts: a credit file's JSON shrinks to about a quarter, so its row stays out of TOAST and a
   * monitoring period writes a quarter of the bytes. Only for values no one can make us encrypt next to a secret and
   * then measure (a file at rest), since compressed length tells something about the content.
   */
  encryptCompressed(plaintext: string, context: string): string {
    if (!this.#deflate) return this.encrypt(plaintext, context);
    return this.#seal('v2', deflateRawSync(plaintext, { level: 1, windowBits: 12, memLevel: 4 }), context);
  }

  decrypt(sealed: string, context: string): string {
    const [version, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.#keys.get(id) : undefined;
    if ((version !== 'v1' && version !== 'v2') || !key || !iv || !tag || body === undefined) {
      throw new Error('Cannot decrypt: unknown format or key');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(associatedData(version, context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
    return (version === 'v2' ? inflateRawSync(plain, { maxOutputLength: MAX_INFLATED_BYTES }) : plain).toString('utf8');
  }

  #seal(version: 'v1' | 'v2', plain: Buffer, context: string): string {
    // A fresh 96-bit IV per value (pooled CSPRNG bytes, each handed out once): with GCM an IV must never repeat.
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(associatedData(version, context));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return [version, this.#current.id, ...parts].join('.');
  }
}
