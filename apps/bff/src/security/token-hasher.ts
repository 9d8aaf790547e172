import { createHmac } from 'node:crypto';

/**
 * Bearer tokens are stored only as HMAC-SHA256 digests under the token-signing key. Looking a token
 * up by digest is an exact index match, so no timing signal leaks; rotation keeps old keys as
 * candidates until their tokens expire.
 */
export class TokenHasher {
  readonly #keys: Buffer[];
  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new Error('TokenHasher needs at least one key');
    this.#keys = keys;
  }
  /** The digest to store for a new token. */
  hash(token: string): string {
    return this.#digest(this.#keys[0] as Buffer, token);
  }
  /** Every digest the token may be stored under, newest key first. */
  candidates(token: string): string[] {
    return this.#keys.map((key) => this.#digest(key, token));
  }
  #digest(key: Buffer, token: string): string {
    return createHmac('sha256', key).update(token).digest('hex');
  }
}
