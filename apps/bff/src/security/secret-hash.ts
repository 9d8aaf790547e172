import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

// N=2^14, r=8: ~30 ms per check. Client secrets may be chosen by people, so they get a slow hash.
const PARAMS = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

export const hashSecret = async (secret: string): Promise<string> => {
  const salt = randomBytes(16);
  const digest = await scryptAsync(secret, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), digest.toString('base64url')].join('$');
};

// Checked against when the client id is unknown, so a wrong id costs as long as a wrong secret.
let decoyHash: Promise<string> | undefined;

/** Constant-time check of a secret against a stored hash; `undefined` hash still costs one scrypt. */
export const verifySecret = async (secret: string, stored: string | undefined): Promise<boolean> => {
  decoyHash ??= hashSecret(randomBytes(16).toString('hex'));
  const [scheme, n, r, p, salt, expected] = (stored ?? (await decoyHash)).split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const want = Buffer.from(expected, 'base64url');
  const got = await scryptAsync(secret, Buffer.from(salt, 'base64url'), want.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return timingSafeEqual(got, want) && stored !== undefined;
};
