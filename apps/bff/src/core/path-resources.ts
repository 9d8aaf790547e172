import type { Caller } from './principal.ts';

/**
 * Per path parameter (`userId`, `webhookId`, …), how its owning module tells whether the caller may see the resource
 * it names: resolves when it may, throws that module's `404 NOT_FOUND` when not (another client's, another customer's,
 * deleted). `params` are the request's other path parameters (an alert is looked up under its user). Provided on
 * `AppContext` so `http/` answers `404` before a `400` without reaching into modules.
 */
export type PathResourceChecks = Partial<
  Record<string, (caller: Caller, id: string, params: Record<string, unknown>) => Promise<unknown>>
>;
