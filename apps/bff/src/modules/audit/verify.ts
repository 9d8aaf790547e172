import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppServices } from '../../context.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { inReadOnlySnapshot } from '../../db/snapshot.ts';
import { type Clock, realNow } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { TokenHasher } from '../../security/token-hasher.ts';
import { entryHash, GENESIS_HASH } from './chain.ts';
import {
  chainRange,
  dropSupersededCheckpoints,
  findCheckpoint,
  findHead,
  lastEntrySeq,
  newestVerifiedCheckpoints,
  saveVerifiedCheckpoints,
  verifiedCheckpointsIn,
} from './chain-repo.ts';
import { chainSpooledEntries } from './chainer.ts';
import {
  type Checkpoint,
  checkpointSignatureValid,
  signVerifiedCheckpoint,
  type VerifiedCheckpoint,
  verifiedCheckpointValid,
} from './checkpoint.ts';
import { oneRunAtATime } from './verify-queue.ts';

export type BrokenLink =
  | { reason: 'checkpoint_signature'; seq: number }
  | { reason: 'missing_entry'; seq: number; found: number | null }
  | { reason: 'entry_altered'; seq: number; entryId: string }
  | { reason: 'previous_hash_mismatch'; seq: number; entryId: string }
  | { reason: 'head_mismatch'; seq: number };

export interface VerifyResult {
  clientId: string;
  ok: boolean;
  /** Entries re-hashed after `from`. */
  checked: number;
  /** Where verification started: the newest verification checkpoint, the retention checkpoint, or 0 for the genesis. */
  from: number;
  lastSeq: number;
  firstBroken?: BrokenLink;
}

/**
 * `checkpoint`: from the newest verification checkpoint whose signature and entry still hold (the service's default);
 * `start`: from the oldest entry kept, comparing every verification checkpoint with its entry on the way.
 */
export type VerifyFrom = 'checkpoint' | 'start';

/**
 * Entries one statement reads and one event-loop turn hashes: a few milliseconds of this process's time (PGlite's
 * statement included), after which the walk yields to other requests.
 */
const PAGE = 250;
/** Sequences whose verification checkpoints a full check reads at once (a few dozen rows, one statement per 100 pages). */
const VOUCHED_SPAN = 100 * PAGE;
/** A check leaves a signed checkpoint on every this-many-th sequence it passes, and one where it ends. */
export const VERIFY_CHECKPOINT_EVERY = 1_000;
/** Newest checkpoints looked through for one signed by a configured key (forged or orphaned ones are skipped). */
const NEWEST_LOOKED_AT = 5;

/** What a check starts from, read in one snapshot: the head and the last stored entry agree with each other. */
interface ChainState {
  retention: Checkpoint | undefined;
  head: { seq: number; hash: string } | undefined;
  lastEntry: number | null;
  /** The newest verification checkpoint a configured key signed. */
  newest: VerifiedCheckpoint | undefined;
}

const readState = async (q: Queryable, keys: TokenHasher, clientId: string): Promise<ChainState> => ({
  retention: await findCheckpoint(q, clientId),
  head: await findHead(q, clientId),
  lastEntry: await lastEntrySeq(q, clientId),
  newest: (await newestVerifiedCheckpoints(q, clientId, NEWEST_LOOKED_AT)).find((c) => verifiedCheckpointValid(keys, c)),
});

interface WalkOptions {
  /**
   * Pages are separate statements, not one snapshot: a retention prune committed meanwhile shows as a gap, which the
   * moved retention checkpoint explains (the pruner checked what it deleted).
   */
  live: boolean;
  /** Where signed checkpoints of the intact chain are kept (the service's checks; the CLI's writes nothing). */
  record?: { db: Queryable; clock: Clock };
}

/** The entry at a verification checkpoint still hashes to what the checkpoint signed, and is not past the head. */
const checkpointHolds = async (q: Queryable, clientId: string, c: VerifiedCheckpoint, headSeq: number): Promise<boolean> => {
  if (c.seq > headSeq) return false;
  const [entry] = await chainRange(q, clientId, c.seq - 1, c.seq, 1);
  return entry?.seq === c.seq && entry.hash === c.hash && entryHash(entry, entry.seq, entry.prevHash) === entry.hash;
};

const walk = async (
  q: Queryable,
  keys: TokenHasher,
  clientId: string,
  state: ChainState,
  mode: VerifyFrom,
  options: WalkOptions,
): Promise<VerifyResult> => {
  const { retention, head } = state;
  let from = retention?.seq ?? 0;
  const result = (checked: number, lastSeq: number, firstBroken?: BrokenLink): VerifyResult => ({
    clientId,
    ok: !firstBroken,
    checked,
    from,
    lastSeq,
    ...(firstBroken ? { firstBroken } : {}),
  });
  if (retention && !checkpointSignatureValid(keys, retention)) {
    return result(0, from, { reason: 'checkpoint_signature', seq: retention.seq });
  }
  const target = head?.seq ?? 0;
  let prevHash = retention?.hash ?? GENESIS_HASH;
  const newest = state.newest && state.newest.seq > from ? state.newest : undefined;
  // A checkpoint that no longer holds means tampering at or before it: the walk starts over to find the first break.
  const fromCheckpoint = mode === 'checkpoint' && newest !== undefined && (await checkpointHolds(q, clientId, newest, target));
  if (fromCheckpoint && newest) {
    from = newest.seq;
    prevHash = newest.hash;
  }
  const record = options.record;
  const checkpointAt = (clock: Clock, seq: number, hash: string): VerifiedCheckpoint => {
    const unsigned = { clientId, seq, hash, verifiedAt: realNow(clock) };
    return { ...unsigned, signature: signVerifiedCheckpoint(keys, unsigned) };
  };
  let expected = from + 1;
  let checked = 0;
  // False once a prune deleted the rest of the range while the walk ran: the head's hash is then the pruner's to check.
  let reachedTarget = true;
  // From the oldest entry, each entry a check signed for must still have that hash: a prefix rewritten with its hashes
  // recomputed links up perfectly, and only a checkpoint (signed with a key the database does not hold) shows it.
  let vouched: Map<number, string> | undefined;
  let vouchedThrough = from;
  while (expected <= target) {
    if (!fromCheckpoint && expected + PAGE - 1 > vouchedThrough) {
      vouchedThrough = Math.min(target, expected - 1 + VOUCHED_SPAN);
      const signed = await verifiedCheckpointsIn(q, clientId, expected - 1, vouchedThrough);
      vouched = new Map(signed.filter((c) => verifiedCheckpointValid(keys, c)).map((c) => [c.seq, c.hash]));
    }
    const page = await chainRange(q, clientId, expected - 1, target, PAGE);
    const passed: VerifiedCheckpoint[] = [];
    let gapAt: number | null | undefined = page.length === 0 ? null : undefined;
    for (const entry of page) {
      if (entry.seq !== expected) {
        gapAt = entry.seq;
        break;
      }
      if (entry.prevHash !== prevHash) {
        return result(checked, expected - 1, { reason: 'previous_hash_mismatch', seq: entry.seq, entryId: entry.id });
      }
      const signed = vouched?.get(entry.seq);
      if (entryHash(entry, entry.seq, entry.prevHash) !== entry.hash || (signed !== undefined && signed !== entry.hash)) {
        return result(checked, expected - 1, { reason: 'entry_altered', seq: entry.seq, entryId: entry.id });
      }
      prevHash = entry.hash;
      expected += 1;
      checked += 1;
      if (record && entry.seq % VERIFY_CHECKPOINT_EVERY === 0) passed.push(checkpointAt(record.clock, entry.seq, entry.hash));
    }
    if (record) await saveVerifiedCheckpoints(record.db, passed);
    if (gapAt !== undefined) {
      const moved = options.live ? await findCheckpoint(q, clientId) : undefined;
      if (!moved || moved.seq < expected) {
        return result(checked, expected - 1, { reason: 'missing_entry', seq: expected, found: gapAt });
      }
      if (!checkpointSignatureValid(keys, moved)) {
        return result(checked, expected - 1, { reason: 'checkpoint_signature', seq: moved.seq });
      }
      if (moved.seq >= target) {
        reachedTarget = false;
        break;
      }
      expected = moved.seq + 1;
      prevHash = moved.hash;
    }
    // Other requests get the event loop (and, on PGlite, the one database session) between pages.
    await nextTurn();
  }
  const lastSeq = reachedTarget ? expected - 1 : target;
  if (target < from || (state.lastEntry ?? 0) > target || (reachedTarget && target > 0 && prevHash !== head?.hash)) {
    return result(checked, lastSeq, { reason: 'head_mismatch', seq: target });
  }
  // A signed checkpoint past the head: a check once saw entries that are gone, the head moved back over them.
  if (state.newest && state.newest.seq > target) {
    return result(checked, target, { reason: 'missing_entry', seq: target + 1, found: null });
  }
  if (record && reachedTarget && target > (retention?.seq ?? 0)) {
    await saveVerifiedCheckpoints(record.db, [checkpointAt(record.clock, target, prevHash)]);
    await dropSupersededCheckpoints(record.db, clientId, target, VERIFY_CHECKPOINT_EVERY);
  }
  return result(checked, target);
};

/**
 * The full check of a client's chain (the CLI's `verify`), read only: from the retention checkpoint (or the genesis)
 * every sequence follows without gaps, each entry's hash is recomputed from its fields, each links to the previous
 * hash, each entry a verification checkpoint signed for still has that hash, and the chain ends where the head row
 * says. Answers the first broken link: an edited or rewritten entry (`entry_altered`), a removed one
 * (`missing_entry`), a chain rewritten from some entry on (`previous_hash_mismatch`), a checkpoint not signed by us, or
 * a cut-off tail (`head_mismatch`).
 *
 * Checkpoint, pages and head are read in one snapshot: an append or a prune committed while the walk runs would
 * otherwise show as a gap or a cut-off tail, i.e. as tampering.
 */
export const verifyChain = (db: Db, keys: TokenHasher, clientId: string): Promise<VerifyResult> =>
  inReadOnlySnapshot(db, async (snapshot) =>
    walk(snapshot, keys, clientId, await readState(snapshot, keys, clientId), 'start', { live: false }),
  );

const fuller = (queued: VerifyFrom, joining: VerifyFrom): VerifyFrom => (joining === 'start' ? 'start' : queued);

/**
 * The service's check (`POST /v1/audit-events/verify`): by default from the newest verification checkpoint that
 * holds, so a call re-hashes what was appended since the last one; `start` re-hashes every entry kept. It leaves signed
 * checkpoints as it goes. No long transaction: the starting state is one short snapshot, then pages of `PAGE` entries
 * are separate statements with a turn of the event loop between them. One check per client runs at a time in this
 * process; calls arriving meanwhile share the next one (a full one if any of them asked).
 *
 * A check first chains what the spool holds, so every request answered before its callers called is in it; that pass
 * is shared the same way, so concurrent checks never queue on the chainer's lock with a connection each.
 */
export const verifyTrail = (
  ctx: { db: Db; tokens: TokenHasher; clock: Clock; ids?: IdGenerator; services: Pick<AppServices, 'auditRuns'> },
  clientId: string,
  mode: VerifyFrom = 'checkpoint',
): Promise<VerifyResult> =>
  oneRunAtATime(ctx.services.auditRuns, `verify:${clientId}`, mode, fuller, async (chosen) => {
    await oneRunAtATime(
      ctx.services.auditRuns,
      'chain',
      undefined,
      () => undefined,
      () => chainSpooledEntries(ctx),
    );
    const state = await inReadOnlySnapshot(ctx.db, (snapshot) => readState(snapshot, ctx.tokens, clientId));
    return walk(ctx.db, ctx.tokens, clientId, state, chosen, { live: true, record: { db: ctx.db, clock: ctx.clock } });
  });
