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

/**
 * What a check of the chain leaves behind: the entry at `seq` had hash `hash` when the chain up to it was found intact.
 * The next check starts there instead of at the oldest entry (verify.ts).
 */
export interface VerifiedCheckpoint {
  clientId: string;
  seq: number;
  hash: string;
  verifiedAt: Date;
  signature: string;
}

// Its own domain: a verification checkpoint can never pass for a retention checkpoint, which lets a prefix be deleted.
const verifiedPayloadOf = (c: Omit<VerifiedCheckpoint, 'signature'>) =>
  `audit-verified:v1:${JSON.stringify([c.clientId, c.seq, c.hash, c.verifiedAt.toISOString()])}`;

export const signVerifiedCheckpoint = (keys: TokenHasher, c: Omit<VerifiedCheckpoint, 'signature'>): string =>
  keys.hash(verifiedPayloadOf(c));

/** Under any configured key, as for retention checkpoints; one no key signed is ignored, never trusted. */
export const verifiedCheckpointValid = (keys: TokenHasher, c: VerifiedCheckpoint): boolean =>
  keys.candidates(verifiedPayloadOf(c)).includes(c.signature);
