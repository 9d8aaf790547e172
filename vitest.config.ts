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
 * Files that take longest start first, so that no long file starts last while the other workers sit idle. Vitest
 * would order by the durations of the last run on this machine, which a clean CI checkout does not have (and which
 * any other run in the same checkout overwrites); this list is that order, measured (the rest follow, largest first).
 */
const LONGEST_FIRST = [
  'docs/samples/test/partner-kit-install.test.ts',
  'e2e/test/demo-bank.test.ts',
  'apps/bff/test/processes.test.ts',
  'apps/bff/test/audit-crash.test.ts',
  'e2e/test/cross-origin-journey.test.ts',
  'e2e/test/consent-journey.test.ts',
  'e2e/test/mobile-webview.test.ts',
];

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
          exclude: ['**/node_modules/**', ...isolated, ...RUN_ALONE],
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
