import type { TokenHasher } from '../../security/token-hasher.ts';

/** What stands in for a pruned prefix of a client's chain: its last entry's sequence and hash. */
export interface Checkpoint {
  clientId: string;
  seq: number;
  hash: string;
  prunedBefore: Date;
  signedAt: Date;
  signature: string;
}

// Domain separation: a checkpoint signature can never be mistaken for a token digest made with the same key.
const payloadOf = (c: Omit<Checkpoint, 'signature'>) =>
  `audit-checkpoint:v1:${JSON.stringify([c.clientId, c.seq, c.hash, c.prunedBefore.toISOString(), c.signedAt.toISOString()])}`;

/** HMAC-SHA256 under the instance's token-signing key (the newest of the configured list). */
export const signCheckpoint = (keys: TokenHasher, c: Omit<Checkpoint, 'signature'>): string => keys.hash(payloadOf(c));

/** Accepted under any configured key, so rotating TOKEN_SIGNING_KEY keeps old checkpoints verifiable while listed. */
export const checkpointSignatureValid = (keys: TokenHasher, c: Checkpoint): boolean =>
  keys.candidates(payloadOf(c)).includes(c.signature);
