import { appendFileSync } from 'node:fs';
import type { Operation } from '@credit/contract';
import fc from 'fast-check';
import { exampleRequests } from './fuzz-examples.ts';
import { sendRaw } from './fuzz-http.ts';
import { describeExchange, judge } from './fuzz-oracle.ts';
import { type Category, requestsArbitrary } from './fuzz-requests.ts';
import type { FuzzWorld } from './fuzz-world.ts';

/**
 * Fixed, so a failure replays: fast-check prints the seed and the shrink path with the counterexample.
 * `FUZZ_SEED=<n>` explores elsewhere; `FUZZ_RUNS=<n>` runs each property longer (the suite keeps it short).
 */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20_260_111);
const RUN_FACTOR = Number(process.env.FUZZ_RUNS ?? 1);
/**
 * Triage only: `FUZZ_REPORT=<file>` appends every failing exchange to the file (one JSON line each) and
 * lets the property go on, so one run lists all that is wrong instead of the first thing per property.
 */
const REPORT_FILE = process.env.FUZZ_REPORT;

/** Random runs per property, after the catalogue's fixed examples (fuzz-examples.ts) have all run once. */
export const RUNS: Record<Category, number> = { path: 6, query: 6, body: 8, transport: 4, auth: 4 };

/** One property: every request generated for `op` in `category` gets an answer that keeps every rule. */
export const fuzzOperation = async (world: FuzzWorld, op: Operation, category: Category) => {
  const examples = exampleRequests(world, op, category, FUZZ_SEED).map((requests) => [requests] as [typeof requests]);
  await fc.assert(
    fc.asyncProperty(requestsArbitrary(world, op, category), async (requests) => {
      for (const request of requests) {
        const response = await sendRaw(world.app.url, request);
        const problems = judge(world, request, response);
        if (!problems.length) continue;
        if (REPORT_FILE) {
          appendFileSync(
            REPORT_FILE,
            `${JSON.stringify({ category, problems, exchange: describeExchange(request, response) })}\n`,
          );
          continue;
        }
        throw new Error(`${problems.join('\n')}\n${describeExchange(request, response)}`);
      }
    }),
    {
      seed: FUZZ_SEED,
      // fast-check counts the examples in numRuns: they all run, then the random ones.
      numRuns: examples.length + Math.max(1, Math.round(RUNS[category] * RUN_FACTOR)),
      examples,
      includeErrorInReport: true,
    },
  );
};
