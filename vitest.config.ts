import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const include = [
  'packages/*/test/**/*.test.ts',
  'apps/*/test/**/*.test.ts',
  'e2e/test/**/*.test.ts',
  'docs/samples/test/**/*.test.{ts,tsx}',
];

/** Files that assert on state a process keeps for its lifetime (the prepared statement names it has handed out). */
const NEEDS_OWN_PROCESS = ['apps/bff/test/db-prepared-statements.test.ts'];

// The folders `include` reaches: each package's and app's test/, e2e/test and docs/samples/test.
const testDirs = (): string[] => [
  ...['packages', 'apps'].flatMap((parent) => readdirSync(path.join(ROOT, parent)).map((name) => `${parent}/${name}/test`)),
  'e2e/test',
  'docs/samples/test',
];

/** Test files that ask for a DOM (`// @vitest-environment happy-dom`): its globals must not outlive the file. */
const domTestFiles = (): string[] =>
  testDirs()
    .filter((dir) => existsSync(path.join(ROOT, dir)))
    .flatMap((dir) =>
      readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((file) => path.join(dir, file)),
    )
    .filter((file) => /\.test\.tsx?$/.test(file))
    .filter((file) => /@vitest-environment\s+\S*dom/.test(readFileSync(path.join(ROOT, file), 'utf8').slice(0, 2000)));

const isolated = [...NEEDS_OWN_PROCESS, ...domTestFiles()];

/**
 * Files that rewrite files other tests read while they run (loader.test.ts builds packages/embed/dist/embed.js, which
 * the API serves to the browser journeys): they run at the end, when no other file runs.
 */
const RUN_ALONE = ['packages/embed/test/loader.test.ts'];

/**
 * Test files run side by side, one per worker process. Much of the suite's wall time is waiting (spawned servers,
 * Chromium, npm, timers, sockets), so on a 2-core CI machine two workers keep both cores busy where Vitest's default
 * (cores − 1, so one) ran every file after the other. Three were faster still on a loaded machine, but there the
 * journeys and crash tests, which spawn processes of their own, ran into their timeouts. Each worker is one process
 * that runs file after file (the 'node' project's isolate: false); on PostgreSQL each worker gets a database of its
 * own (worker-database.ts). VITEST_MAX_WORKERS (or --maxWorkers) overrides it; 1 runs the suite as before.
 */
const WORKERS = 2;

/**
 * Files that take longest start first, so that no long file starts last while the other worker sits idle (the suite
 * ends when its last file does). Vitest would order by the durations of the last run on this machine, which a clean CI
 * checkout does not have (and which any other run in the same checkout overwrites); without them it runs the largest
 * files first, and fuzz.test.ts (10-18 s, a small file) came last, alone for its whole length. This list is that
 * order, measured in both of CI's passes (.ci/run; each file's time from Vitest starting it to its end, the longer of
 * the two passes, on a 2-core machine: 2026-12), every file of 4 s or more; the rest follow, largest first.
 */
const LONGEST_FIRST = [
  'docs/samples/test/partner-kit-install.test.ts', // 70-87 s
  'e2e/test/demo-bank.test.ts', // 95–150 s
  'apps/bff/test/processes.test.ts', // 44-69 s
  'e2e/test/offers-journey.test.ts', // 45-85 s
  'apps/bff/test/offers-program-audience.test.ts', // 21-74 s
  'e2e/test/consent-journey.test.ts', // 32 s
  'e2e/test/cross-origin-journey.test.ts', // 29 s
  'apps/bff/test/audit-crash.test.ts', // 22-27 s
  'docs/samples/test/offer-program.test.ts', // 16-20 s
  'apps/bff/test/webhooks-crash.test.ts', // 19-24 s
  'e2e/test/mobile-webview.test.ts', // 21 s
  'apps/bff/test/read-cache.test.ts', // 11-19 s
  'apps/bff/test/fuzz.test.ts', // 10-18 s
  'apps/bff/test/monitoring-crash.test.ts', // 6-14 s
  'apps/bff/test/multi-instance.test.ts', // 6-14 s
  'apps/bff/test/widget-disclosure.test.ts', // 10-12 s
  'apps/bff/test/consent.test.ts', // 6-12 s
  'apps/bff/test/auth-matrix.test.ts', // 7-11 s
  'apps/demo/test/start-command.test.ts', // 9-10 s
  'e2e/test/clock-advance.test.ts', // 9 s
  'e2e/test/origin-refused.test.ts', // 8 s
  'e2e/test/session-modes.test.ts', // 8 s
  'apps/bff/test/layer-rules.test.ts', // 8 s
  'apps/bff/test/audit-retention.test.ts', // 4-8 s
  'e2e/test/refresh-score.test.ts', // 7 s
  'apps/bff/test/built-server.test.ts', // 5-7 s
  'apps/demo/test/demo-server.test.ts', // 6-7 s
  'apps/bff/test/rate-limit.test.ts', // 6-7 s
  'e2e/test/token-expiry.test.ts', // 6 s
  'apps/bff/test/webhooks-batching.test.ts', // 6 s
  'apps/bff/test/verification.test.ts', // 5-6 s
  'e2e/test/double-create.test.ts', // 5 s
  'apps/bff/test/webhooks-delivery.test.ts', // 5 s
  'apps/bff/test/batch.test.ts', // 3-4 s
];

/**
 * Files whose tests do the same on either database: nothing in them reads DATABASE_URL (processes.test.ts and
 * start-command.test.ts spawn the start command and the CLI on PGlite data folders of their own in every pass;
 * layer-rules.test.ts runs dependency-cruiser) or what they check is not the database (partner-kit-install.test.ts:
 * the npm tarballs, their types and a partner's project installed from them; its in-process API does run on the
 * pass's database, so on PostgreSQL only now, but the operations its samples call run on PGlite in the API tests and
 * in docs/samples/test). CI's second pass, which runs the suite again on PGlite (.ci/run sets
 * CREDIT_TEST_PASS=again-on-pglite), leaves them out: they ran in the first, and were 156 of its 505 s of file time.
 */
const SAME_ON_EVERY_DATABASE = [
  'apps/bff/test/processes.test.ts',
  'apps/demo/test/start-command.test.ts',
  'apps/bff/test/layer-rules.test.ts',
  'docs/samples/test/partner-kit-install.test.ts',
];
const ONCE_PER_CI = process.env.CREDIT_TEST_PASS === 'again-on-pglite' ? SAME_ON_EVERY_DATABASE : [];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.relative(ROOT, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Stable: projects and groups stay where Vitest put them; within a project the listed files move to the front.
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) =>
        a.spec.project.name === b.spec.project.name ? rank(a.spec) - rank(b.spec) || a.index - b.index : a.index - b.index,
      )
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: WORKERS,
    sequence: { sequencer: LongestFirst },
    // Before each file, in every project: on PostgreSQL, the worker's own database.
    setupFiles: ['apps/bff/test/helpers/worker-database.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include,
          exclude: ['**/node_modules/**', ...isolated, ...RUN_ALONE, ...ONCE_PER_CI],
          // One worker process runs file after file and keeps its module cache: each file no longer imports and
          // compiles the workspace (and PGlite's WebAssembly) again. Every file closes what it opens (afterAll).
          isolate: false,
          // Once per run: the migrated PGlite that every harness app copies instead of running initdb (test/helpers),
          // and apps/bff/dist, which the tests spawning the server or a CLI run, built if missing or out of date.
          globalSetup: ['apps/bff/test/helpers/global-setup.ts', 'apps/bff/test/helpers/server-build.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
      // A later group: Vitest starts it once every file of the others has finished.
      {
        extends: true,
        test: { name: 'alone', include: RUN_ALONE, isolate: true, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
