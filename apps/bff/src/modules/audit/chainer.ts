import type { Logger } from 'pino';
import type { Db } from '../../db/db.ts';
import type { Clock } from '../../lib/clock.ts';
import { type IdGenerator, manyIds, randomIds } from '../../lib/ids.ts';
import { appendEntries } from './append-repo.ts';
import { toPendingEntry } from './spool-entry.ts';
import { deleteSpoolBatches, lockChainer, oldestSpoolBatches, spoolBounds, spoolHasRows } from './spool-repo.ts';

// Spool rows per chaining transaction (each a batch of reads): bounds one transaction's size after a long backlog.
const BATCHES_PER_PASS = 100;

/**
 * Moves every spooled entry (reads, writes, pulls, mints) into its client's hash chain, in spool order (ids,
 * sequences and hashes assigned here, under the heads' row locks) and deletes the spool rows in the same
 * transaction: an entry is in the spool or in the chain, never both, never neither. Answers the entries chained.
 */
export const chainSpooledEntries = async (ctx: { db: Db; ids?: IdGenerator }): Promise<number> => {
  const ids = ctx.ids ?? randomIds;
  let chained = 0;
  while (await spoolHasRows(ctx.db)) {
    const moved = await ctx.db.transaction(async (tx) => {
      await lockChainer(tx);
      const batches = await oldestSpoolBatches(tx, BATCHES_PER_PASS);
      if (batches.ids.length === 0) return 0;
      const entryIds = manyIds(ids, 'aud', batches.entries.length);
      await appendEntries(
        tx,
        batches.entries.map((e, i) => toPendingEntry(e, entryIds[i] as string)),
      );
      await deleteSpoolBatches(tx, batches.ids);
      return batches.entries.length;
    });
    if (moved === 0) break; // another chainer emptied it while this one waited for the lock
    chained += moved;
  }
  return chained;
};

// Unref'd: a pending pass never keeps a process (CLI, API, worker) alive; the next start chains what it would have.
const BACKGROUND = { unref: true } as const;

/**
 * A process's chainer: a pass `intervalMs` after a batch was spooled (one wait at a time, never keeping the process
 * alive), or every `intervalMs` in a worker, timed by `ctx.clock` so a test moves it instead of sleeping. What a killed
 * process left is chained on the next start (bootstrap.ts), by the worker's housekeeping, and by whatever lists or
 * exports the trail.
 *
 * `onlyWhenStale` (the API processes of a split deployment): a pass chains only rows it already saw at its previous
 * look, i.e. rows no worker chained in the meantime, so the API leaves the chaining to a running worker (which chains
 * every interval) and still drains the spool when there is none. It keeps looking while the spool holds rows.
 */
export class AuditChainer {
  #waiting = false;
  #running = false;
  /** The newest spool row at the previous look (`onlyWhenStale`), or undefined after an empty one. */
  #seenUpTo: bigint | undefined;
  constructor(
    private readonly ctx: { db: Db; clock: Clock; ids?: IdGenerator; logger?: Logger },
    private readonly intervalMs: number,
    private readonly onlyWhenStale = false,
  ) {}

  /** The worker of a split deployment: a pass every `intervalMs` (skipped while one runs), as long as it runs. */
  everyInterval(): void {
    void (async () => {
      for (;;) {
        await this.ctx.clock.sleep(this.intervalMs, undefined, BACKGROUND);
        // Not awaited: the next wait starts now, as an interval timer's would, and a pass still running skips a beat.
        void this.#pass();
      }
    })();
  }

  /** A pass `intervalMs` from now, unless one is already due. */
  soon(): void {
    if (this.#waiting) return;
    this.#waiting = true;
    void this.ctx.clock.sleep(this.intervalMs, undefined, BACKGROUND).then(() => {
      this.#waiting = false;
      void this.#pass();
    });
  }

  async #pass(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      if (this.onlyWhenStale) await this.#chainIfStale();
      else await chainSpooledEntries(this.ctx);
    } catch (error) {
      // The rows stay in the spool: the next pass (or the worker's housekeeping) chains them.
      this.ctx.logger?.warn({ err: error }, 'audit chaining failed; spooled entries kept for the next pass');
      if (this.onlyWhenStale) this.soon();
    } finally {
      this.#running = false;
    }
  }

  async #chainIfStale(): Promise<void> {
    const bounds = await spoolBounds(this.ctx.db);
    if (!bounds) {
      this.#seenUpTo = undefined;
      return;
    }
    if (this.#seenUpTo !== undefined && bounds.oldest <= this.#seenUpTo) await chainSpooledEntries(this.ctx);
    this.#seenUpTo = bounds.newest;
    // Rows are (or were just) waiting: look again, whether or not more reads arrive.
    this.soon();
  }
}
