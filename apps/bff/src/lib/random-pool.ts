import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for values that must be unique and unguessable but are not secret once made: resource ids and AES-GCM
 * IVs (both stored in the clear). Each `randomBytes` call is a crypto job of its own, so the pool draws a block from
 * the same CSPRNG at once, as Node's own `randomUUID` does.
 *
 * Every byte is handed out once. Secrets (client secrets, access and user tokens) do not come from here: their bytes
 * are drawn fresh when they are made (lib/ids.ts `randomToken`), so none of them sits in memory before its use.
 * Processes started by `fork()` from child_process or cluster run a new program with a pool of their own.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

const refill = (): void => {
  randomFillSync(pool);
  next = 0;
};

/** One random byte (0–255). */
export const pooledRandomByte = (): number => {
  if (next === POOL_BYTES) refill();
  return pool[next++] as number;
};

/** `length` random bytes in a Buffer of their own (never a view of the pool). */
export const pooledRandomBytes = (length: number): Buffer => {
  const out = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    if (next === POOL_BYTES) refill();
    const take = Math.min(length - filled, POOL_BYTES - next);
    pool.copy(out, filled, next, next + take);
    next += take;
    filled += take;
  }
  return out;
};
