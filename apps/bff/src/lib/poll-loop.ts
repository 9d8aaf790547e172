/** A background loop a worker role runs: `pass` again at once while it reports work done, else after `intervalMs`. */
export interface PollLoop {
  /** Ends the loop after the pass under way; resolves when it has ended. */
  stop(): Promise<void>;
}

export const startPollLoop = (intervalMs: number, pass: () => Promise<boolean>): PollLoop => {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = async () => {
    while (!stopped) {
      if (await pass()) continue;
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, intervalMs).unref();
      });
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await running;
    },
  };
};

/** Runs `work` over `items` with at most `concurrency` in flight. */
export const eachLimited = async <T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
};
