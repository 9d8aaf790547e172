import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'e2e/test/**/*.test.ts',
      'docs/samples/test/**/*.test.{ts,tsx}',
    ],
    // Once per run: the migrated PGlite that every harness app copies instead of running initdb (test/helpers).
    globalSetup: ['apps/bff/test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
  },
});
