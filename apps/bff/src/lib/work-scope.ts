import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The one AsyncLocalStorage of the process: what the current work (a request, a job, one period of a clock advance)
 * carries implicitly. Each part is owned by its module (the clock scope by lib/clock.ts, the audit scope by
 * core/audit-trail.ts) and reads and sets only its own field. One storage rather than one per part because Node
 * propagates every enabled storage into every promise created: each extra storage is paid on every `await`.
 */
export interface WorkScope {
  clock?: unknown;
  audit?: unknown;
}

const storage = new AsyncLocalStorage<WorkScope>();

export const currentWorkScope = (): WorkScope | undefined => storage.getStore();

/** Runs `work` with `part` set to `value` and every other part as it is now (the objects shared, not copied). */
export const runWithScopePart = <K extends keyof WorkScope, T>(part: K, value: WorkScope[K], work: () => T): T =>
  storage.run({ ...storage.getStore(), [part]: value }, work);
