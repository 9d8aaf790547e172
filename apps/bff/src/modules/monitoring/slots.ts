import PQueue from 'p-queue';

/**
 * A worker's pull slots, shared first come first served by the batches it has in flight, and the turn to claim. A
 * batch is claimed only once every pull claimed before it has started, one claim at a time: a claimed user then waits
 * behind at most one batch, so the last start a lease allows (a quarter before its end) holds as it did with one loop,
 * while the batch before finishes its last pulls and commits.
 */
export class MonitoringSlots {
  readonly #queue: PQueue;
  #turn: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(concurrency: number) {
    this.#queue = new PQueue({ concurrency });
  }

  /** From now on a claim waiting for its turn claims nothing: a stopping worker takes no new users. */
  close(): void {
    this.#closed = true;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Runs `work` in a slot, after the work queued before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.#queue.add(work);
  }

  /**
   * Resolves once nothing waits for a slot. p-queue's `onEmpty` waits for the next slot to free after that, so this
   * listens for each start (`active`, emitted once the task has left the queue) instead.
   */
  #allStarted(): Promise<void> {
    if (this.#queue.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.#queue.size > 0) return;
        this.#queue.off('active', check);
        resolve();
      };
      this.#queue.on('active', check);
    });
  }

  /**
   * Runs `claim` in its turn, then `start` with what it claimed; the turn passes on once `start` has queued its work
   * (synchronously, before its first await), so the next claim waits for that work to start.
   */
  async claimThen<C, R>(claim: () => Promise<C>, start: (claimed: C) => Promise<R>): Promise<R> {
    const previous = this.#turn;
    let release = () => {};
    this.#turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: Promise<R>;
    try {
      await previous;
      await this.#allStarted();
      started = start(await claim());
    } finally {
      release();
    }
    return started;
  }
}
