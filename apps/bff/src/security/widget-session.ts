import { timingSafeEqual } from 'node:crypto';
import type { DataCipher } from './encryption.ts';
import type { TokenHasher } from './token-hasher.ts';

/**
 * A widget session is the user token, sealed with AES-256-GCM under the data key, so the server keeps no session
 * table and revoking or expiring the token ends the session. Its CSRF token is an HMAC of the user token: only the
 * frame that made the session has it. How the sealed token travels (a cookie) is http/widget-session-cookie.ts's.
 */
const SEAL_CONTEXT = 'widget-session';
const csrfInput = (token: string) => `widget-csrf:${token}`;

interface SessionKeys {
  tokens: TokenHasher;
  cipher: DataCipher;
}

export interface SealedWidgetSession {
  sealedToken: string;
  csrfToken: string;
}

export const sealWidgetSession = (keys: SessionKeys, token: string): SealedWidgetSession => ({
  sealedToken: keys.cipher.encrypt(token, SEAL_CONTEXT),
  csrfToken: keys.tokens.hash(csrfInput(token)),
});

const sameDigest = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The user token of a sealed session with its CSRF token, or why it cannot be used. */
export const openWidgetSession = (
  keys: SessionKeys,
  sealedToken: string,
  csrfToken: string,
): { token: string } | { failure: 'unreadable' | 'csrf_mismatch' } => {
  let token: string;
  try {
    token = keys.cipher.decrypt(sealedToken, SEAL_CONTEXT);
  } catch {
    return { failure: 'unreadable' };
  }
  const matches = keys.tokens.candidates(csrfInput(token)).some((digest) => sameDigest(digest, csrfToken));
  return matches ? { token } : { failure: 'csrf_mismatch' };
};
