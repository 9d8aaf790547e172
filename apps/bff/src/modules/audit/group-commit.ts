import type { Db } from '../../db/db.ts';
import { appendEntries } from './append-repo.ts';
import type { PendingEntry } from './entry.ts';

// Bounds one transaction's size (and so one batch's lock time) under a burst.
const MAX_BATCH = 500;

interface Waiting {
  entry: PendingEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: entries arriving while a batch commits wait for the next batch, which starts as soon as the previous
 * one committed (no timer, so an idle writer adds one transaction's latency and a busy one amortises it). A caller's
 * promise resolves only after its batch committed, so nothing answered can be lost to a crash.
 */
export class AuditGroupCommit {
  #waiting: Waiting[] = [];
  #running = false;
  // Clients whose chain head row exists (added after a commit): their appends skip creating it.
  readonly #knownHeads = new Set<string>();
  constructor(private readonly db: Db) {}

  append(entry: PendingEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ entry, resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, MAX_BATCH);
        try {
          await this.db.transaction((tx) =>
            appendEntries(
              tx,
              batch.map((w) => w.entry),
              this.#knownHeads,
            ),
          );
          for (const w of batch) this.#knownHeads.add(w.entry.clientId);
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}

const writers = new WeakMap<Db, AuditGroupCommit>();
/** One writer per database handle (per process, in production). */
export const groupCommitOf = (db: Db): AuditGroupCommit => {
  let writer = writers.get(db);
  if (!writer) {
    writer = new AuditGroupCommit(db);
    writers.set(db, writer);
  }
  return writer;
};
