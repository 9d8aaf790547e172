import { createHash } from 'node:crypto';

/**
 * A key as configured: 32+ bytes given as base64 or hex. A comma-separated list rotates keys:
 * the first one is used for new work, the others are still accepted for old data and tokens.
 */
export const parseKeyList = (value: string, name: string): Buffer[] => {
  const keys = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (/^[0-9a-f]{64,}$/i.test(part) ? Buffer.from(part, 'hex') : Buffer.from(part, 'base64')));
  if (keys.length === 0 || keys.some((key) => key.length < 32)) {
    throw new Error(`${name} must be one or more comma-separated keys of at least 32 bytes (base64 or hex)`);
  }
  return keys;
};

/** A short, non-secret name for a key, stored beside what it encrypted so rotation finds the right one. */
export const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);
