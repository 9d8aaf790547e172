import type { Db, Queryable } from '../../db/db.ts';
import { inReadOnlySnapshot } from '../../db/snapshot.ts';
import type { TokenHasher } from '../../security/token-hasher.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import { chainSlice, findCheckpoint, findHead } from './chain-repo.ts';
import { checkpointSignatureValid } from './checkpoint.ts';

export type BrokenLink =
  | { reason: 'checkpoint_signature'; seq: number }
  | { reason: 'missing_entry'; seq: number; found: number | null }
  | { reason: 'entry_altered'; seq: number; entryId: string }
  | { reason: 'previous_hash_mismatch'; seq: number; entryId: string }
  | { reason: 'head_mismatch'; seq: number };

export interface VerifyResult {
  clientId: string;
  ok: boolean;
  /** Entries checked (after the checkpoint, if any). */
  checked: number;
  /** Where verification started: the checkpoint's sequence, or 0 for the genesis. */
  from: number;
  lastSeq: number;
  firstBroken?: BrokenLink;
}

const PAGE = 1000;

const verifyInSnapshot = async (db: Queryable, keys: TokenHasher, clientId: string): Promise<VerifyResult> => {
  const checkpoint = await findCheckpoint(db, clientId);
  const from = checkpoint?.seq ?? 0;
  const result = (checked: number, lastSeq: number, firstBroken?: BrokenLink): VerifyResult => ({
    clientId,
    ok: !firstBroken,
    checked,
    from,
    lastSeq,
    ...(firstBroken ? { firstBroken } : {}),
  });
  if (checkpoint && !checkpointSignatureValid(keys, checkpoint)) {
    return result(0, from, { reason: 'checkpoint_signature', seq: checkpoint.seq });
  }
  let expectedSeq = from + 1;
  let prevHash = checkpoint?.hash ?? GENESIS_HASH;
  let checked = 0;
  for (;;) {
    const slice = await chainSlice(db, clientId, expectedSeq - 1, PAGE);
    // A gap at the very start (the first entries after the checkpoint deleted) shows as a later first sequence.
    for (const entry of slice) {
      if (entry.seq !== expectedSeq) {
        return result(checked, expectedSeq - 1, { reason: 'missing_entry', seq: expectedSeq, found: entry.seq });
      }
      if (entry.prevHash !== prevHash) {
        return result(checked, expectedSeq - 1, { reason: 'previous_hash_mismatch', seq: entry.seq, entryId: entry.id });
      }
      if (entryHash(entry, entry.seq, entry.prevHash) !== entry.hash) {
        return result(checked, expectedSeq - 1, { reason: 'entry_altered', seq: entry.seq, entryId: entry.id });
      }
      prevHash = entry.hash;
      expectedSeq += 1;
      checked += 1;
    }
    if (slice.length < PAGE) break;
  }
  const lastSeq = expectedSeq - 1;
  const head = await findHead(db, clientId);
  const headSeq = head?.seq ?? 0;
  // Entries beyond the last one found were removed (or the head was moved): the first missing one is the break.
  if (headSeq > lastSeq) return result(checked, lastSeq, { reason: 'missing_entry', seq: lastSeq + 1, found: null });
  if (headSeq !== lastSeq || (head && headSeq > 0 && head.hash !== prevHash)) {
    return result(checked, lastSeq, { reason: 'head_mismatch', seq: headSeq });
  }
  return result(checked, lastSeq);
};

/**
 * Walks a client's chain from its signed checkpoint (or the genesis): sequences follow without gaps, each entry's
 * hash is recomputed from its fields, each links to the previous hash, and the chain ends where the head row says.
 * Answers the first broken link: an edited entry (`entry_altered`), a removed one (`missing_entry`), a chain rewritten
 * from some entry on (`previous_hash_mismatch`), a checkpoint not signed by us, or a cut-off tail (`head_mismatch`).
 *
 * Checkpoint, pages and head are read in one snapshot: an append or a prune committed while the walk runs would
 * otherwise show as a gap or a cut-off tail, i.e. as tampering.
 */
export const verifyChain = (db: Db, keys: TokenHasher, clientId: string): Promise<VerifyResult> =>
  inReadOnlySnapshot(db, (snapshot) => verifyInSnapshot(snapshot, keys, clientId));
