import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The one AsyncLocalStorage of the process: the request a bureau pull deep inside a handler is recorded for (the
 * audit scope, owned by core/audit-trail.ts). Time is never carried here: a request's clock is its RequestScope's,
 * passed as an argument (core/request-scope.ts).
 */
export interface WorkScope {
  audit?: unknown;
}

const storage = new AsyncLocalStorage<WorkScope>();

export const currentWorkScope = (): WorkScope | undefined => storage.getStore();

/** Runs `work` with `part` set to `value` and every other part as it is now (the objects shared, not copied). */
export const runWithScopePart = <K extends keyof WorkScope, T>(part: K, value: WorkScope[K], work: () => T): T =>
  storage.run({ ...storage.getStore(), [part]: value }, work);
