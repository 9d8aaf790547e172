import { constants, PerformanceObserver } from 'node:perf_hooks';

/**
 * This process's garbage collection so far: pause time (µs) and how many collections were major (mark-compact).
 * The coordinator takes differences over a run, as it does with CPU time, to tell a run whose extra CPU went to the
 * collector from one whose extra CPU went to its requests.
 */
export interface GcTotals {
  gcUs: number;
  majorGcs: number;
}

const totals: GcTotals = { gcUs: 0, majorGcs: 0 };

// Observing from import on: the servers import this module before they start serving.
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    totals.gcUs += entry.duration * 1000;
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) totals.majorGcs += 1;
  }
}).observe({ entryTypes: ['gc'] });

export const gcTotals = (): GcTotals => ({ ...totals });
