import type { Db } from '../../db/db.ts';
import type { SpooledEntry } from './spool-entry.ts';
import { insertSpoolBatch } from './spool-repo.ts';

interface Batch {
  entries: SpooledEntry[];
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const newBatch = (): Batch => {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Every appender awaits `done`; this only keeps a failed batch nobody awaits any more from crashing the process.
  done.catch(() => {});
  return { entries: [], done, resolve, reject };
};

/**
 * The audit trail's writer (with a write's own spool row, record.ts): the entries of one event-loop turn (and of every
 * turn while the previous batch is committing) become ONE row of audit_spool, written by one autocommitted insert; every entry of the batch shares
 * one promise that resolves after that commit, so an answered read's entry survives a SIGKILL. Per entry the request
 * path only pushes a flat array: no id, no hash, no per-entry promise (the chainer does the rest, chainer.ts).
 */
export class AuditSpool {
  #open: Batch | undefined;
  #writing = false;
  #scheduled = false;
  constructor(
    private readonly db: Db,
    /** Called after each committed batch (the chainer's timer starts from it). */
    private readonly onSpooled: () => void,
  ) {}

  append(entry: SpooledEntry): Promise<void> {
    const batch = this.#open ?? this.#openBatch();
    batch.entries.push(entry);
    return batch.done;
  }

  #openBatch(): Batch {
    const batch = newBatch();
    this.#open = batch;
    this.#schedule();
    return batch;
  }

  // Once per event-loop turn: entries appended by requests answered in the same turn share the write.
  #schedule(): void {
    if (this.#writing || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.#write());
  }

  async #write(): Promise<void> {
    this.#scheduled = false;
    const batch = this.#open;
    if (!batch) return;
    this.#open = undefined;
    this.#writing = true;
    try {
      await insertSpoolBatch(this.db, JSON.stringify(batch.entries));
      batch.resolve();
      this.onSpooled();
    } catch (error) {
      batch.reject(error);
    } finally {
      this.#writing = false;
      if (this.#open) this.#schedule();
    }
  }
}
