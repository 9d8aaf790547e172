import type { Db } from '../../db/db.ts';
import { appendToClientChain, type ChainHead } from './conditional-append-repo.ts';
import type { PendingEntry } from './entry.ts';

// Bounds one statement's size under a burst.
const MAX_BATCH = 500;

interface Waiting {
  entry: PendingEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: entries arriving while a batch commits wait for the next batch, which starts as soon as the previous
 * one committed (no timer, so an idle writer adds one statement's latency and a busy one amortises it). Each client's
 * share of a batch is one statement (its own transaction, committed when it returns). A caller's promise resolves
 * only after its entry committed, so nothing answered can be lost to a crash.
 */
export class AuditGroupCommit {
  #waiting: Waiting[] = [];
  #running = false;
  // The chain heads this writer last wrote or read: a batch is chained on them without a round trip to read them.
  readonly #heads = new Map<string, ChainHead>();
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
        const byClient = new Map<string, Waiting[]>();
        for (const w of this.#waiting.splice(0, MAX_BATCH)) {
          const share = byClient.get(w.entry.clientId);
          if (share) share.push(w);
          else byClient.set(w.entry.clientId, [w]);
        }
        for (const [clientId, share] of byClient) {
          try {
            await appendToClientChain(
              this.db,
              clientId,
              share.map((w) => w.entry),
              this.#heads,
            );
            for (const w of share) w.resolve();
          } catch (error) {
            this.#heads.delete(clientId);
            for (const w of share) w.reject(error);
          }
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
