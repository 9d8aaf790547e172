import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include,
          exclude: ['**/node_modules/**', ...isolated],
          // One worker process runs file after file and keeps its module cache: each file no longer imports and
          // compiles the workspace (and PGlite's WebAssembly) again. Every file closes what it opens (afterAll).
          isolate: false,
          // Once per run: the migrated PGlite that every harness app copies instead of running initdb (test/helpers).
          globalSetup: ['apps/bff/test/helpers/global-setup.ts'],
        },
      },
      { extends: true, test: { name: 'isolated', include: isolated, isolate: true } },
    ],
  },
});
