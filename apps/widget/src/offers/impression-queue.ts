/** How the queue sends a batch, and what it reads the day from. */
export interface ImpressionQueueOptions {
  send: (offerIds: string[]) => Promise<unknown>;
  /** Milliseconds since the epoch; the day an offer counts on is its UTC date, as the API counts it. */
  now?: () => number;
  /** How long a first impression waits for others to join its batch. */
  batchDelayMs?: number;
  /** The API takes at most 50 offers a request. */
  maxBatch?: number;
  /** Tries per impression before it is dropped (a later sighting queues it again). */
  maxAttempts?: number;
}

export interface ImpressionQueue {
  /** Queues an offer the customer saw; an offer already queued or sent today is left alone. */
  add(offerId: string): void;
  /** Sends whatever is queued now (the page is being hidden or left). */
  flush(): void;
  /** The offers waiting to be sent, oldest first. */
  pending(): string[];
  /** Stops the timer; queued impressions are not sent. */
  dispose(): void;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Offer impressions gathered into batches: one request every few seconds at most, each offer once a day. It knows
 * nothing of the DOM or the API, so fake timers and a fake `send` test it whole.
 */
export const createImpressionQueue = ({
  send,
  now = Date.now,
  batchDelayMs = 5_000,
  maxBatch = 50,
  maxAttempts = 3,
}: ImpressionQueueOptions): ImpressionQueue => {
  let day = utcDay(now());
  /** Queued, in flight or sent today. */
  let known = new Set<string>();
  let waiting: { offerId: string; attempts: number }[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const rollOver = () => {
    const today = utcDay(now());
    if (today === day) return;
    day = today;
    // Yesterday's sightings may be counted again today; those still waiting go as they are.
    known = new Set(waiting.map((item) => item.offerId));
  };

  const schedule = () => {
    if (disposed || timer !== undefined || waiting.length === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush();
    }, batchDelayMs);
  };

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (disposed) return;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, maxBatch);
      send(batch.map((item) => item.offerId)).catch(() => {
        for (const item of batch) {
          item.attempts += 1;
          if (item.attempts < maxAttempts) waiting.push(item);
          else known.delete(item.offerId);
        }
        schedule();
      });
    }
  };

  return {
    add(offerId) {
      if (disposed) return;
      rollOver();
      if (known.has(offerId)) return;
      known.add(offerId);
      waiting.push({ offerId, attempts: 0 });
      schedule();
    },
    flush,
    pending: () => waiting.map((item) => item.offerId),
    dispose() {
      disposed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      waiting = [];
    },
  };
};

/**
 * Sends the queue when the page is hidden (tab switched, app backgrounded) or left: the last moments a request
 * still has a good chance to go. Answers the function that stops listening.
 */
export const flushWhenHidden = (queue: Pick<ImpressionQueue, 'flush'>, target: Window = window): (() => void) => {
  const onHide = () => queue.flush();
  const onVisibility = () => {
    if (target.document.visibilityState === 'hidden') queue.flush();
  };
  target.addEventListener('pagehide', onHide);
  target.document.addEventListener('visibilitychange', onVisibility);
  return () => {
    target.removeEventListener('pagehide', onHide);
    target.document.removeEventListener('visibilitychange', onVisibility);
  };
};
