import { createCipheriv, createDecipheriv } from 'node:crypto';
import { pooledRandomBytes } from '../lib/random-pool.ts';
import { keyId } from './keys.ts';

/**
 * AES-256-GCM for personal data at rest. The associated data binds a ciphertext to its row and
 * column, so a value copied into another user's row fails to decrypt instead of leaking.
 * Format: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
export class DataCipher {
  readonly #keys: Map<string, Buffer>;
  readonly #current: { id: string; key: Buffer };

  constructor(keys: Buffer[]) {
    const [first] = keys;
    if (!first) throw new Error('DataCipher needs at least one key');
    this.#keys = new Map(keys.map((key) => [keyId(key), key.subarray(0, 32)]));
    this.#current = { id: keyId(first), key: first.subarray(0, 32) };
  }

  encrypt(plaintext: string, context: string): string {
    // A fresh 96-bit IV per value (pooled CSPRNG bytes, each handed out once): with GCM an IV must never repeat.
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url'));
    return ['v1', this.#current.id, ...parts].join('.');
  }

  decrypt(sealed: string, context: string): string {
    const [version, id, iv, tag, body] = sealed.split('.');
    const key = id ? this.#keys.get(id) : undefined;
    if (version !== 'v1' || !key || !iv || !tag || body === undefined) {
      throw new Error('Cannot decrypt: unknown format or key');
    }
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
