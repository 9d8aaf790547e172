import type { AppContext } from '../../context.ts';
import { realNow } from '../../lib/clock.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import { chainSlice, findCheckpoint, saveCheckpoint, verifiedCheckpointsIn } from './chain-repo.ts';
import { chainSpooledEntries } from './chainer.ts';
import { checkpointSignatureValid, signCheckpoint, verifiedCheckpointValid } from './checkpoint.ts';
import {
  clientsWithEntriesBefore,
  deleteEntriesThrough,
  deleteVerifiedCheckpointsThrough,
  firstKeptSeq,
  lockChainHead,
} from './prune-repo.ts';

type PruneContext = Pick<AppContext, 'db' | 'clock' | 'tokens' | 'logger'> & Partial<Pick<AppContext, 'ids'>>;

/** Entries one transaction prunes: short transactions, the chain head held briefly. */
export const AUDIT_PRUNE_CHUNK = 2_000;
const MAX_CHUNKS_PER_CLIENT = 250;

/**
 * Prunes one chunk of a client's trail older than `cutoff`, in one transaction under the chain head's lock: the
 * prefix is checked link by link from the current checkpoint and against the verification checkpoints in it (a broken
 * prefix is never pruned — the evidence stays), deleted with those, and replaced by a checkpoint signed with the
 * instance key holding its last entry's sequence and hash.
 * Answers the entries pruned.
 */
const pruneChunk = async (ctx: PruneContext, clientId: string, cutoff: Date, chunk: number): Promise<number> =>
  ctx.db.transaction(async (tx) => {
    const head = await lockChainHead(tx, clientId);
    if (!head) return 0;
    const checkpoint = await findCheckpoint(tx, clientId);
    if (checkpoint && !checkpointSignatureValid(ctx.tokens, checkpoint)) {
      ctx.logger.error({ clientId, seq: checkpoint.seq }, 'audit checkpoint signature invalid; not pruning this trail');
      return 0;
    }
    const from = checkpoint?.seq ?? 0;
    const kept = await firstKeptSeq(tx, clientId, from, cutoff);
    const lastPrunable = Math.min((kept ?? head.seq + 1) - 1, from + chunk);
    if (lastPrunable <= from) return 0;
    const prefix = await chainSlice(tx, clientId, from, lastPrunable - from);
    // An entry a check signed for must still have that hash: a prefix rewritten hashes and all is evidence too.
    const vouched = new Map(
      (await verifiedCheckpointsIn(tx, clientId, from, lastPrunable))
        .filter((c) => verifiedCheckpointValid(ctx.tokens, c))
        .map((c) => [c.seq, c.hash]),
    );
    let prevHash = checkpoint?.hash ?? GENESIS_HASH;
    for (const [i, entry] of prefix.entries()) {
      const intact =
        entry.seq === from + i + 1 &&
        entry.prevHash === prevHash &&
        entryHash(entry, entry.seq, prevHash) === entry.hash &&
        (vouched.get(entry.seq) ?? entry.hash) === entry.hash;
      if (!intact) {
        ctx.logger.error({ clientId, seq: from + i + 1 }, 'audit trail broken; not pruning past the break');
        return 0;
      }
      prevHash = entry.hash;
    }
    const last = prefix.at(-1);
    if (!last || last.seq !== lastPrunable) return 0;
    const unsigned = { clientId, seq: last.seq, hash: last.hash, prunedBefore: cutoff, signedAt: realNow(ctx.clock) };
    await saveCheckpoint(tx, { ...unsigned, signature: signCheckpoint(ctx.tokens, unsigned) });
    await deleteVerifiedCheckpointsThrough(tx, clientId, last.seq);
    return deleteEntriesThrough(tx, clientId, last.seq);
  });

/**
 * The housekeeping step (retention/prune.ts): first chains what the spool holds (the worker's share of chaining, for
 * entries an API process left there), then prunes every client's entries older than `cutoff`, chunk by chunk.
 */
export const pruneAuditTrails = async (ctx: PruneContext, cutoff: Date, chunk = AUDIT_PRUNE_CHUNK): Promise<number> => {
  await chainSpooledEntries(ctx);
  let pruned = 0;
  for (const clientId of await clientsWithEntriesBefore(ctx.db, cutoff)) {
    for (let i = 0; i < MAX_CHUNKS_PER_CLIENT; i++) {
      const n = await pruneChunk(ctx, clientId, cutoff, chunk);
      pruned += n;
      if (n < chunk) break;
    }
  }
  return pruned;
};
