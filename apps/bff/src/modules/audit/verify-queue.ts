/** A run queued behind the running one, not started yet: whoever arrives now can share it. */
interface Queued<M, R> {
  mode: M;
  result: Promise<R>;
}

interface Lane {
  /** Settles once every run started or queued so far has finished. */
  done: Promise<unknown>;
  queued: Queued<unknown, unknown> | undefined;
}

/** One app's lanes, by key (`AppServices.auditRuns`). */
export type RunLanes = Map<string, Lane>;

/**
 * Runs `run` for `key` only when no other run of that key runs in this app. A call arriving while one runs waits
 * for it and then shares the next run with every other call that arrived meanwhile: that run starts after they all
 * called, so it sees everything each of them saw committed, and any number of concurrent calls cost at most two runs.
 * `merge` folds a joining call's mode into the queued run's (a full check asked by any of them, say).
 */
export const oneRunAtATime = <M, R>(
  lanes: RunLanes,
  key: string,
  mode: M,
  merge: (queued: M, joining: M) => M,
  run: (mode: M) => Promise<R>,
): Promise<R> => {
  const current = lanes.get(key);
  const waiting = current?.queued as Queued<M, R> | undefined;
  if (waiting) {
    waiting.mode = merge(waiting.mode, mode);
    return waiting.result;
  }
  const lane: Lane = current ?? { done: Promise.resolve(), queued: undefined };
  const queued = { mode } as Queued<M, R>;
  queued.result = lane.done.then(() => {
    // Started: later callers queue behind this run instead of sharing it.
    if (lane.queued === queued) lane.queued = undefined;
    return run(queued.mode);
  });
  lane.queued = queued as Queued<unknown, unknown>;
  const done = queued.result.then(
    () => undefined,
    () => undefined,
  );
  lane.done = done;
  lanes.set(key, lane);
  void done.then(() => {
    if (lane.done === done && lanes.get(key) === lane) lanes.delete(key);
  });
  return queued.result;
};
